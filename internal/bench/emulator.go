package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
	"github.com/rms-labs/terraform-provider-rms/internal/outofband"
)

// Emulator is an rms emulator served on a loopback port by this process,
// whose requests are counted by route (see Route) on top of the emulator's
// own Server.Requests totals.
type Emulator struct {
	URL        string // base_url, without /rest
	CustomerID int64
	Username   string
	Password   string
	Server     *emulator.Server

	http    *http.Server
	done    chan error
	mu      sync.Mutex
	counts  Counts
	events  []Event
	latency atomic.Int64 // added before every answer, in nanoseconds
}

// Event is one request the emulator answered: when it arrived, when the
// answer was complete, the method, the path as sent and its Route.
type Event struct {
	Arrived time.Time
	At      time.Time
	Method  string
	Path    string
	Route   string
}

// StartEmulator serves a new emulator for opts on 127.0.0.1.
func StartEmulator(opts emulator.Options) (*Emulator, error) {
	srv := emulator.New(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the emulator: %w", err)
	}
	o := srv.Options()
	e := &Emulator{
		URL: "http://" + ln.Addr().String(), CustomerID: o.CustomerID,
		Username: o.Username, Password: o.Password, Server: srv,
		done: make(chan error, 1), counts: Counts{},
	}
	e.http = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			arrived := time.Now()
			if d := time.Duration(e.latency.Load()); d > 0 {
				time.Sleep(d)
			}
			srv.ServeHTTP(w, r)
			route := Route(r.URL.Path)
			e.mu.Lock()
			e.counts[r.Method+" "+route]++
			e.events = append(e.events, Event{Arrived: arrived, At: time.Now(), Method: r.Method, Path: r.URL.Path, Route: route})
			e.mu.Unlock()
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { e.done <- e.http.Serve(ln) }()
	return e, nil
}

// SetLatency makes every answer from now on wait d first, as a service
// across a network would; zero answers at once.
func (e *Emulator) SetLatency(d time.Duration) { e.latency.Store(int64(d)) }

// Close stops the emulator.
func (e *Emulator) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.http.Shutdown(ctx); err != nil {
		return err
	}
	if err := <-e.done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Counts returns a copy of the requests counted so far.
func (e *Emulator) Counts() Counts {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(Counts, len(e.counts))
	for k, v := range e.counts {
		out[k] = v
	}
	return out
}

// Events returns the requests answered at or after since, in order.
func (e *Emulator) Events(since time.Time) []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Event
	for _, ev := range e.events {
		if !ev.At.Before(since) {
			out = append(out, ev)
		}
	}
	return out
}

// Do sends one request below /rest/{customerid}/ as an out-of-band user of
// the account would (to set up lists, say), decoding a JSON answer into out.
func (e *Emulator) Do(ctx context.Context, method, path string, body, out any) error {
	acc := outofband.Account{Base: fmt.Sprintf("%s/rest/%d", e.URL, e.CustomerID), Username: e.Username, Password: e.Password}
	status, raw, err := acc.JSON(ctx, method, path, body)
	if err != nil && status == 0 {
		return err
	}
	if status >= 300 {
		return fmt.Errorf("%s %s: status %d: %s", method, path, status, raw)
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// CreateList makes a list out of band and returns its id.
func (e *Emulator) CreateList(ctx context.Context, name string) (string, error) {
	var l struct {
		ID json.Number `json:"id"`
	}
	if err := e.Do(ctx, http.MethodPost, "lists", map[string]any{"name": name}, &l); err != nil {
		return "", err
	}
	return l.ID.String(), nil
}

// Counts are request counts keyed by "METHOD route", e.g.
// "GET lists/{id}/contacts/{originalId}".
type Counts map[string]int64

// Sub is c minus before: the requests made between two snapshots.
func (c Counts) Sub(before Counts) Counts {
	out := Counts{}
	for k, v := range c {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// Total is the number of requests.
func (c Counts) Total() int64 {
	var n int64
	for _, v := range c {
		n += v
	}
	return n
}

// Reads is the number of GET requests.
func (c Counts) Reads() int64 { return c.method("GET") }

// Writes is the number of POST, PUT, PATCH and DELETE requests.
func (c Counts) Writes() int64 {
	return c.method("POST") + c.method("PUT") + c.method("PATCH") + c.method("DELETE")
}

func (c Counts) method(m string) int64 {
	var n int64
	for k, v := range c {
		if strings.HasPrefix(k, m+" ") {
			n += v
		}
	}
	return n
}

// String lists the counts by route, largest first, e.g.
// "1000 GET lists/{id}/contacts/{originalId}, 1 GET properties".
func (c Counts) String() string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c[keys[i]] != c[keys[j]] {
			return c[keys[i]] > c[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", c[k], k)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Route is the shape of a request path below /rest/{customerid}/: numeric
// segments become {id} and the segment after "contacts" becomes
// {originalId}, so "/rest/1000/lists/5/contacts/c-1" is
// "lists/{id}/contacts/{originalId}"; an export file's URL is
// "objectstore/{token}". Other paths outside /rest are returned as they are.
func Route(path string) string {
	if _, ok := strings.CutPrefix(path, "/objectstore/"); ok {
		return "objectstore/{token}" // an export's file, at a pre-signed URL
	}
	rest, ok := strings.CutPrefix(path, "/rest/")
	if !ok {
		return path
	}
	_, tail, _ := strings.Cut(rest, "/")
	if tail == "" {
		return ""
	}
	segs := strings.Split(tail, "/")
	for i, s := range segs {
		switch {
		case i > 0 && segs[i-1] == "contacts" && s != "":
			segs[i] = "{originalId}"
		case isID(s):
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "/")
}

// isID reports whether a path segment is an id of the service: a decimal
// number.
func isID(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
