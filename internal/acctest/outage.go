package acctest

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Outage is a reverse proxy in front of an emulator that can make the
// service go away: while it is down its port refuses connections (the
// listener is closed) and the connections it carried are cut, as when the
// service's process is killed or its host unreachable. The emulator behind
// it keeps running, its batches too; Up brings the same address back.
type Outage struct {
	// Env reaches the emulator through the proxy: its Config and
	// ProviderBlock name the proxy's URL; its other fields are those of the
	// Env the outage was made for.
	Env *Env

	addr string
	srv  *http.Server

	mu      sync.Mutex
	ln      net.Listener
	down    bool
	trigger *OutageTrigger
	conns   map[net.Conn]http.ConnState
}

// OutageTrigger takes the service down right after it answered the After-th
// request (counted from Arm) of Method whose URL path matches Path with a
// 2xx status: the client has that answer, and its next request is refused.
type OutageTrigger struct {
	Method string
	Path   *regexp.Regexp
	After  int

	seen int // guarded by the Outage's mu
}

// NewOutage starts the proxy, up, in front of env's emulator for the test.
func NewOutage(t testing.TB, env *Env) *Outage {
	t.Helper()
	target, err := url.Parse(env.URL)
	if err != nil {
		t.Fatalf("outage: emulator URL %q: %v", env.URL, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("outage: listening: %v", err)
	}
	o := &Outage{addr: ln.Addr().String(), ln: ln, conns: map[net.Conn]http.ConnState{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = o.observe
	o.srv = &http.Server{Handler: proxy, ConnState: o.track, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = o.srv.Serve(ln) }()
	t.Cleanup(func() { _ = o.srv.Close() })
	through := *env // the copy shares the emulator, not the URL
	through.URL = "http://" + o.addr
	o.Env = &through
	return o
}

// Arm sets the trigger that takes the service down; it replaces an earlier
// one that has not fired.
func (o *Outage) Arm(tr OutageTrigger) {
	o.mu.Lock()
	defer o.mu.Unlock()
	tr.seen = 0
	o.trigger = &tr
}

// Down takes the service away now.
func (o *Outage) Down() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.goDown()
}

// IsDown says whether the service is away.
func (o *Outage) IsDown() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.down
}

// Up brings the service back on the same address.
func (o *Outage) Up(t testing.TB) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.down {
		return
	}
	var ln net.Listener
	var err error
	// The closed port is free at once on loopback; a few tries cover a
	// listener still being torn down.
	for try := 0; try < 50; try++ {
		if ln, err = net.Listen("tcp", o.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("outage: listening again on %s: %v", o.addr, err)
	}
	o.ln, o.down, o.trigger = ln, false, nil
	go func() { _ = o.srv.Serve(ln) }()
}

// goDown closes the listener, so new connections are refused, and cuts
// every connection not in the middle of an answer (those are cut as soon as
// they finish it, in track). The caller holds mu.
func (o *Outage) goDown() {
	if o.down {
		return
	}
	o.down = true
	_ = o.ln.Close()
	for c, state := range o.conns {
		if state != http.StateActive {
			_ = c.Close()
		}
	}
}

// track keeps the proxy's connections, and cuts one that goes idle (or
// opens) while the service is down: a kept-alive connection must not carry
// the client's next request past the outage.
func (o *Outage) track(c net.Conn, state http.ConnState) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch state {
	case http.StateClosed, http.StateHijacked:
		delete(o.conns, c)
		return
	}
	o.conns[c] = state
	if o.down && state != http.StateActive {
		_ = c.Close()
	}
}

// observe counts the answers the trigger matches and takes the service down
// after the one it waits for; that answer itself is delivered.
func (o *Outage) observe(resp *http.Response) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	tr := o.trigger
	if tr == nil || o.down || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	if resp.Request.Method != tr.Method || !tr.Path.MatchString(resp.Request.URL.Path) {
		return nil
	}
	if tr.seen++; tr.seen < tr.After {
		return nil
	}
	o.trigger = nil
	o.goDown()
	return nil
}
