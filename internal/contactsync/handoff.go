package contactsync

import "sync"

// handoff is what one part of a provider run leaves for another that
// follows it (a destroy half for its create half, a refresh for its plan):
// values by key, stored by one caller and taken by another, under one
// lock, since Terraform runs resources concurrently. Its zero value is
// empty and ready.
type handoff[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// Put stores v under k, replacing what was there.
func (h *handoff[K, V]) Put(k K, v V) {
	h.Update(k, func(V, bool) (V, bool) { return v, true })
}

// Take removes the value under k and returns it.
func (h *handoff[K, V]) Take(k K) (V, bool) {
	var got V
	var found bool
	h.Update(k, func(v V, ok bool) (V, bool) {
		got, found = v, ok
		return v, false
	})
	return got, found
}

// Get returns the value under k and leaves it there.
func (h *handoff[K, V]) Get(k K) (V, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.m[k]
	return v, ok
}

// Update replaces the value under k (ok: there was one) with what f
// returns, in one step: f's keep = false removes it. f runs under the
// lock and must not call back into h.
func (h *handoff[K, V]) Update(k K, f func(v V, ok bool) (next V, keep bool)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.m[k]
	next, keep := f(v, ok)
	switch {
	case keep && h.m == nil:
		h.m = map[K]V{k: next}
	case keep:
		h.m[k] = next
	default:
		delete(h.m, k)
	}
}

// Len is the number of values held.
func (h *handoff[K, V]) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}
