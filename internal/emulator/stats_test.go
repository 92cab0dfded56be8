package emulator

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestStats(t *testing.T) {
	s := New(Options{})
	mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	do(t, s, http.MethodGet, "/rest/1000/projects", nil)
	do(t, s, http.MethodGet, "/rest/1000/lists", nil, withoutAuth())
	do(t, s, http.MethodGet, "/mail/swagger", nil)
	got := s.Requests()
	want := RequestStats{
		Total:        4,
		ByMethod:     map[string]int64{"GET": 3, "POST": 1},
		ByCollection: map[string]int64{"projects": 2, "lists": 1},
		ByStatus:     map[int]int64{200: 2, 201: 1, 401: 1},
		// The unauthenticated request is refused before routing.
		ByRoute: map[string]int64{
			"GET /mail/swagger":                    1,
			"GET /rest/{customerid}/{collection}":  1,
			"POST /rest/{customerid}/{collection}": 1,
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	// The snapshot is a copy.
	got.ByMethod["GET"] = 100
	if s.Requests().ByMethod["GET"] != 3 {
		t.Error("Requests returns shared maps")
	}
}
