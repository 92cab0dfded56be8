package acctest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"sync"
	"testing"
)

// Garbler is a fault-injecting reverse proxy in front of an emulator: every
// request passes through to the emulator unchanged, and so does every
// answer, except the successful (2xx) answers an armed Rule matches, whose
// body it replaces with something no client can read. The emulator has
// acted all the same and holds real state: this is how tests make a write
// that succeeded but whose answer cannot be understood.
type Garbler struct {
	// Env reaches the emulator through the proxy: its Config and
	// ProviderBlock name the proxy's URL; its other fields are those of the
	// Env the garbler was made for.
	Env *Env

	mu    sync.Mutex
	rules []*Rule
}

// Garble says what a Rule does to a successful answer's body.
type Garble int

const (
	// GarbleTruncate keeps the first half of the body, as a connection
	// that broke off mid-answer would: `{"id":7,"name":"Ne`.
	GarbleTruncate Garble = iota
	// GarbleHTML replaces the body with an HTML page, as a proxy or
	// gateway that took over the answer would.
	GarbleHTML
)

// Rule garbles the successful answers to requests of Method whose URL path
// matches Path, Times times; then it is spent and the proxy passes answers
// through again.
type Rule struct {
	Method string
	Path   *regexp.Regexp
	Times  int
	Garble Garble
	// StripLocation removes the answer's Location header too, so that the
	// answer names nothing it made.
	StripLocation bool

	fired int // guarded by the Garbler's mu
}

// NewGarbler starts the proxy in front of env's emulator for the test.
func NewGarbler(t testing.TB, env *Env) *Garbler {
	t.Helper()
	target, err := url.Parse(env.URL)
	if err != nil {
		t.Fatalf("garbler: emulator URL %q: %v", env.URL, err)
	}
	g := &Garbler{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = g.modify
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	through := *env // the copy shares the emulator, not the URL
	through.URL = srv.URL
	g.Env = &through
	return g
}

// Arm adds a rule; it applies from the next request on. It returns the
// rule, whose Fired says how often it garbled.
func (g *Garbler) Arm(r Rule) *Rule {
	g.mu.Lock()
	defer g.mu.Unlock()
	rule := r
	g.rules = append(g.rules, &rule)
	return &rule
}

// Fired is how many answers the rule garbled so far.
func (g *Garbler) Fired(r *Rule) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return r.fired
}

// take returns the first unspent rule that matches the request, counting
// it as fired, or nil.
func (g *Garbler) take(req *http.Request) *Rule {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.rules {
		if r.fired < r.Times && r.Method == req.Method && r.Path.MatchString(req.URL.Path) {
			r.fired++
			return r
		}
	}
	return nil
}

func (g *Garbler) modify(resp *http.Response) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	r := g.take(resp.Request)
	if r == nil {
		return nil
	}
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return err
	}
	var body []byte
	switch r.Garble {
	case GarbleHTML:
		body = []byte("<html><head><title>502 Bad Gateway</title></head><body>upstream answered, the gateway did not pass it on</body></html>")
		resp.Header.Set("Content-Type", "text/html; charset=utf-8")
	default:
		body = raw[:len(raw)/2]
		if len(body) == 0 {
			body = []byte(`{"id":`) // an empty answer is readable; half of nothing is not
		}
	}
	if r.StripLocation {
		resp.Header.Del("Location")
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}
