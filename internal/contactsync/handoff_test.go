package contactsync

import (
	"sync"
	"testing"
)

func TestHandoff(t *testing.T) {
	cases := []struct {
		name   string
		steps  func(h *handoff[string, int])
		key    string
		want   int
		wantOK bool
	}{
		{name: "empty", key: "a"},
		{name: "put then take", steps: func(h *handoff[string, int]) { h.Put("a", 1) }, key: "a", want: 1, wantOK: true},
		{name: "later put wins", steps: func(h *handoff[string, int]) { h.Put("a", 1); h.Put("a", 2) }, key: "a", want: 2, wantOK: true},
		{name: "other key", steps: func(h *handoff[string, int]) { h.Put("b", 1) }, key: "a"},
		{name: "update adds", steps: func(h *handoff[string, int]) {
			h.Update("a", func(v int, ok bool) (int, bool) { return v + 5, true })
		}, key: "a", want: 5, wantOK: true},
		{name: "update removes", steps: func(h *handoff[string, int]) {
			h.Put("a", 1)
			h.Update("a", func(v int, ok bool) (int, bool) { return v, false })
		}, key: "a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var h handoff[string, int]
			if tc.steps != nil {
				tc.steps(&h)
			}
			if v, ok := h.Get(tc.key); v != tc.want || ok != tc.wantOK {
				t.Fatalf("Get = %d, %v; want %d, %v", v, ok, tc.want, tc.wantOK)
			}
			if v, ok := h.Take(tc.key); v != tc.want || ok != tc.wantOK {
				t.Fatalf("Take = %d, %v; want %d, %v", v, ok, tc.want, tc.wantOK)
			}
			if _, ok := h.Take(tc.key); ok {
				t.Fatal("a second Take found the value again")
			}
		})
	}
}

// TestHandoffConcurrent: each value stored is taken exactly once however
// the callers interleave.
func TestHandoffConcurrent(t *testing.T) {
	var h handoff[int, int]
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); h.Put(i, i) }()
	}
	wg.Wait()
	var mu sync.Mutex
	taken := map[int]int{}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if v, ok := h.Take(i); ok {
					mu.Lock()
					taken[v]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for i := range 50 {
		if taken[i] != 1 {
			t.Fatalf("value %d taken %d times", i, taken[i])
		}
	}
}
