package emulator

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPaging(t *testing.T) {
	s := New(Options{})
	var ids []string
	for i := range 5 {
		ids = append(ids, idOf(t, mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": fmt.Sprint("p", i)})))
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"", ids},
		{"?pageSize=2", ids[0:2]},
		{"?page=0&pageSize=2", ids[0:2]},
		{"?page=1&pageSize=2", ids[2:4]},
		{"?page=2&pageSize=2", ids[4:5]}, // short last page
		{"?page=3&pageSize=2", nil},      // past the end: empty, not an error
		{"?page=1", nil},                 // default pageSize 100
		{"?pageSize=1000", ids},
		{"?page=9223372036854775807&pageSize=1000", nil}, // no overflow
		{"?page=1&pageSize=3&other=x", ids[3:5]},         // unknown parameters ignored
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			rec := do(t, s, http.MethodGet, "/rest/1000/projects"+tt.query, nil)
			wantStatus(t, rec, http.StatusOK)
			if got := rec.Header().Get("X-Total-Count"); got != "5" {
				t.Errorf("X-Total-Count = %q, want 5", got)
			}
			got := []string{}
			for _, e := range decodeArray(t, rec) {
				got = append(got, idOf(t, e))
			}
			want := append([]string{}, tt.want...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPagingBadParameters(t *testing.T) {
	s := New(Options{})
	tests := []struct {
		query, field, msg string
	}{
		{"?pageSize=0", "pageSize", `pageSize must be an integer from 1 to 1000, got "0"`},
		{"?pageSize=1001", "pageSize", `pageSize must be an integer from 1 to 1000, got "1001"`},
		{"?pageSize=abc", "pageSize", `pageSize must be an integer from 1 to 1000, got "abc"`},
		{"?pageSize=", "pageSize", `pageSize must be an integer from 1 to 1000, got ""`},
		{"?page=-1", "page", `page must be an integer of 0 or more, got "-1"`},
		{"?page=1.5", "page", `page must be an integer of 0 or more, got "1.5"`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			wantError(t, do(t, s, http.MethodGet, "/rest/1000/projects"+tt.query, nil),
				ErrorBody{Status: 400, Code: CodeValidation, Message: tt.msg, Field: tt.field})
		})
	}
}
