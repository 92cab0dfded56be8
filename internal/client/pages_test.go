package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pagedAnswer serves five entities {"id": i, "name": "n<i>"} page by page.
func pagedAnswer() func(http.ResponseWriter, *http.Request) {
	const total = 5
	return func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		size, _ := strconv.Atoi(r.URL.Query().Get("pageSize"))
		items := []map[string]any{}
		for i := page * size; i < min((page+1)*size, total); i++ {
			items = append(items, map[string]any{"id": i + 1, "name": fmt.Sprint("n", i+1), "url": fmt.Sprint("https://h", i+1)})
		}
		b, _ := json.Marshal(items)
		writeJSON(w, 200, string(b))
	}
}

func TestEachPageFunctions(t *testing.T) {
	srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
		"GET /rest/1000/projects":           pagedAnswer(),
		"GET /rest/1000/lists":              pagedAnswer(),
		"GET /rest/1000/webhooks":           pagedAnswer(),
		"GET /rest/1000/campaigns/12/notes": pagedAnswer(),
	}}
	c, _ := newTestClient(t, srv)
	ctx := context.Background()
	cases := map[string]func(fn func(n int, id string) error) error{
		"projects": func(fn func(int, string) error) error {
			return c.Projects.EachPage(ctx, 2, func(p []Project) error { return fn(len(p), p[0].ID.String()) })
		},
		"lists": func(fn func(int, string) error) error {
			return c.Lists.EachPage(ctx, 2, func(p []List) error { return fn(len(p), p[0].ID.String()) })
		},
		"webhooks": func(fn func(int, string) error) error {
			return c.Webhooks.EachPage(ctx, 2, func(p []Webhook) error { return fn(len(p), p[0].ID.String()) })
		},
		"campaigns/12/notes": func(fn func(int, string) error) error {
			return c.Entities.EachPage(ctx, "campaigns/12/notes", 2, func(p []Entity) error { return fn(len(p), EntityID(p[0])) })
		},
	}
	for name, each := range cases {
		t.Run(name, func(t *testing.T) {
			var sizes []int
			var firsts []string
			if err := each(func(n int, id string) error {
				sizes = append(sizes, n)
				firsts = append(firsts, id)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]int{2, 2, 1}, sizes); diff != "" {
				t.Errorf("page sizes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"1", "3", "5"}, firsts); diff != "" {
				t.Errorf("first ids (-want +got):\n%s", diff)
			}

			// The caller's error stops paging after one page and comes
			// back unwrapped.
			stop := errors.New("stop")
			pages := 0
			err := each(func(int, string) error { pages++; return stop })
			if !errors.Is(err, stop) || err.Error() != stop.Error() || pages != 1 {
				t.Errorf("stop: err %v after %d pages, want the caller's error after 1", err, pages)
			}
		})
	}

	// An API error names what was being listed.
	err := c.Entities.EachPage(ctx, "forms", 0, func([]Entity) error { return nil })
	if !IsNotFound(err) {
		t.Fatalf("unknown collection: %v", err)
	}
	mustContain(t, err.Error(), "listing forms")
}
