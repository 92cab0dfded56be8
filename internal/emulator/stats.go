package emulator

import (
	"maps"
	"sync"
)

// RequestStats counts the requests a Server has answered, for benchmarks and
// tests that assert how many calls an operation made.
type RequestStats struct {
	Total int64
	// ByMethod counts by HTTP method ("GET", "POST", ...).
	ByMethod map[string]int64
	// ByCollection counts requests under /rest/{customerid}/ by the first
	// segment below it ("projects", "lists", ...), as sent.
	ByCollection map[string]int64
	// ByStatus counts by the status code answered.
	ByStatus map[int]int64
	// ByRoute counts by the route pattern that served the request, e.g.
	// "GET /rest/{customerid}/batches/{batchId}"; requests no route served
	// (refused before routing, or unknown paths) are not counted here.
	ByRoute map[string]int64
}

// requestCounter is the race-safe accumulator behind Server.Requests.
type requestCounter struct {
	mu sync.Mutex
	s  RequestStats
}

func newRequestCounter() *requestCounter {
	return &requestCounter{s: RequestStats{
		ByMethod:     map[string]int64{},
		ByCollection: map[string]int64{},
		ByStatus:     map[int]int64{},
		ByRoute:      map[string]int64{},
	}}
}

func (c *requestCounter) record(method, collection, route string, status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.s.Total++
	c.s.ByMethod[method]++
	if collection != "" {
		c.s.ByCollection[collection]++
	}
	c.s.ByStatus[status]++
	if route != "" {
		c.s.ByRoute[route]++
	}
}

func (c *requestCounter) snapshot() RequestStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return RequestStats{
		Total:        c.s.Total,
		ByMethod:     maps.Clone(c.s.ByMethod),
		ByCollection: maps.Clone(c.s.ByCollection),
		ByStatus:     maps.Clone(c.s.ByStatus),
		ByRoute:      maps.Clone(c.s.ByRoute),
	}
}
