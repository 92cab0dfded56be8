package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeleteOne(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		wantErr error // nil: success
	}{
		{"no content", http.StatusNoContent, nil},
		{"ok", http.StatusOK, nil},
		{"already gone counts as done", http.StatusNotFound, nil},
		{"retired is an error", http.StatusGone, ErrGone},
		{"forbidden is an error", http.StatusForbidden, ErrForbidden},
		{"conflict is an error", http.StatusConflict, ErrConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var methods []string
			var mu sync.Mutex
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				methods = append(methods, r.Method+" "+r.URL.Path)
				mu.Unlock()
				if tt.status == http.StatusNoContent {
					w.WriteHeader(tt.status)
					return
				}
				writeError(w, tt.status, "X", "m", "")
			}))
			err := c.Resources.Delete(context.Background(), "projects", "5")
			if tt.wantErr == nil && err != nil {
				t.Errorf("Resources.Delete = %v, want success", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Resources.Delete = %v, want %v", err, tt.wantErr)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]string{"DELETE /rest/1000/projects/5"}, methods); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsNotFound(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("not found"), false},
		{&APIError{StatusCode: 404}, true},
		{fmt.Errorf("reading: %w", &APIError{StatusCode: 404}), true},
		{&APIError{StatusCode: 410}, false},
	}
	for _, tt := range tests {
		if got := IsNotFound(tt.err); got != tt.want {
			t.Errorf("IsNotFound(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

type item struct {
	ID ID `json:"id"`
}

// pagingServer serves a collection of n items with the service's paging.
type pagingServer struct {
	n        int
	mu       sync.Mutex
	requests []url.Values
}

func (p *pagingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p.mu.Lock()
	p.requests = append(p.requests, q)
	p.mu.Unlock()
	page, err1 := strconv.Atoi(q.Get("page"))
	size, err2 := strconv.Atoi(q.Get("pageSize"))
	if err1 != nil || err2 != nil || page < 0 || size < 1 || size > 1000 {
		writeError(w, http.StatusBadRequest, "VALIDATION_ERROR", "bad paging", "page")
		return
	}
	var ids []string
	for i := page * size; i < min(p.n, (page+1)*size); i++ {
		ids = append(ids, fmt.Sprintf(`{"id":%d,"extra":"x"}`, i+1))
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(p.n))
	writeJSON(w, http.StatusOK, "["+strings.Join(ids, ",")+"]")
}

func (p *pagingServer) pages() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, q := range p.requests {
		out = append(out, q.Get("page")+"/"+q.Get("pageSize"))
	}
	return out
}

func TestEachPage(t *testing.T) {
	tests := []struct {
		name      string
		items     int
		pageSize  int
		wantPages []string // page/pageSize as the server saw them
		wantSizes []int    // lengths of the pages handed to fn
	}{
		{"three full pages and a short one", 7, 2, []string{"0/2", "1/2", "2/2", "3/2"}, []int{2, 2, 2, 1}},
		{"exact multiple ends with an empty page", 6, 2, []string{"0/2", "1/2", "2/2", "3/2"}, []int{2, 2, 2, 0}},
		{"empty collection", 0, 3, []string{"0/3"}, []int{0}},
		{"one short page", 2, 3, []string{"0/3"}, []int{2}},
		{"default page size", 3, 0, []string{"0/500"}, []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &pagingServer{n: tt.items}
			c, _ := newTestClient(t, srv)
			var sizes []int
			var ids []ID
			err := EachPage(context.Background(), c, "lists", nil, tt.pageSize, func(page []item) error {
				sizes = append(sizes, len(page))
				for _, it := range page {
					ids = append(ids, it.ID)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("EachPage: %v", err)
			}
			if diff := cmp.Diff(tt.wantPages, srv.pages()); diff != "" {
				t.Errorf("pages requested (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSizes, sizes); diff != "" {
				t.Errorf("page sizes (-want +got):\n%s", diff)
			}
			var wantIDs []ID
			for i := 1; i <= tt.items; i++ {
				wantIDs = append(wantIDs, ID(strconv.Itoa(i)))
			}
			if diff := cmp.Diff(wantIDs, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("caller's query kept and not modified", func(t *testing.T) {
		srv := &pagingServer{n: 3}
		c, _ := newTestClient(t, srv)
		query := url.Values{"type": {"DYNAMIC"}, "page": {"9"}}
		err := EachPage(context.Background(), c, "lists", query, 2, func([]item) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(url.Values{"type": {"DYNAMIC"}, "page": {"9"}}, query); diff != "" {
			t.Errorf("caller's query changed (-want +got):\n%s", diff)
		}
		srv.mu.Lock()
		defer srv.mu.Unlock()
		want := []url.Values{
			{"type": {"DYNAMIC"}, "page": {"0"}, "pageSize": {"2"}},
			{"type": {"DYNAMIC"}, "page": {"1"}, "pageSize": {"2"}},
		}
		if diff := cmp.Diff(want, srv.requests); diff != "" {
			t.Errorf("queries (-want +got):\n%s", diff)
		}
	})

	t.Run("an error from fn stops paging", func(t *testing.T) {
		srv := &pagingServer{n: 10}
		c, _ := newTestClient(t, srv)
		stop := errors.New("stop")
		err := EachPage(context.Background(), c, "lists", nil, 2, func([]item) error { return stop })
		if !errors.Is(err, stop) {
			t.Errorf("EachPage = %v, want the error of fn", err)
		}
		if diff := cmp.Diff([]string{"0/2"}, srv.pages()); diff != "" {
			t.Errorf("pages requested (-want +got):\n%s", diff)
		}
	})

	t.Run("a failing page names the page", func(t *testing.T) {
		var n counter
		c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.inc() == 1 {
				writeJSON(w, http.StatusOK, `[{"id":1},{"id":2}]`)
				return
			}
			writeError(w, http.StatusForbidden, "FORBIDDEN", "no", "")
		}))
		err := EachPage(context.Background(), c, "lists", nil, 2, func([]item) error { return nil })
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("EachPage = %v, want ErrForbidden", err)
		}
		if err != nil {
			mustContain(t, err.Error(), "listing lists (page 1)")
		}
	})
}

func TestGetAll(t *testing.T) {
	srv := &pagingServer{n: 1001}
	c, _ := newTestClient(t, srv)
	all, err := GetAll[item](context.Background(), c, "lists", url.Values{"q": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1001 || all[0].ID != "1" || all[1000].ID != "1001" {
		t.Errorf("got %d items, first %v, last %v", len(all), all[0], all[len(all)-1])
	}
	if diff := cmp.Diff([]string{"0/500", "1/500", "2/500"}, srv.pages()); diff != "" {
		t.Errorf("pages requested (-want +got):\n%s", diff)
	}
}
