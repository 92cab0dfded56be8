package emulator

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// Run with -race: concurrent creates must yield unique ids and lose nothing,
// while reads, updates and deletes run alongside.
func TestConcurrentRequests(t *testing.T) {
	s := New(Options{})
	const workers, perWorker = 16, 25
	ids := make(chan string, workers*perWorker)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				rec := do(t, s, http.MethodPost, "/rest/1000/projects", map[string]any{"name": "p", "w": w, "i": i})
				if rec.Code != http.StatusCreated {
					t.Errorf("create: %d %s", rec.Code, rec.Body.String())
					return
				}
				id := idOf(t, decodeObject(t, rec))
				ids <- id
				do(t, s, http.MethodPut, "/rest/1000/projects/"+id, map[string]any{"touched": true})
				do(t, s, http.MethodGet, "/rest/1000/projects?pageSize=10", nil)
				do(t, s, http.MethodPost, "/rest/1000/projects/"+id+"/notes", map[string]any{})
			}
		})
	}
	// A deleter races with the nested creates above.
	wg.Go(func() {
		for i := 1; i <= 50; i++ {
			do(t, s, http.MethodDelete, "/rest/1000/projects/"+strconv.Itoa(i*7), nil)
		}
	})
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Fatalf("id %s handed out twice", id)
		}
		seen[id] = true
	}
	if len(seen) != workers*perWorker {
		t.Fatalf("%d unique ids, want %d", len(seen), workers*perWorker)
	}
	stats := s.Requests()
	if stats.ByMethod[http.MethodPost] != 2*workers*perWorker {
		t.Errorf("POST count = %d, want %d", stats.ByMethod[http.MethodPost], 2*workers*perWorker)
	}
}
