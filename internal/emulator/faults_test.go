package emulator

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// faultyListener starts an emulator with faults on a real TCP port: dropped
// connections need a real connection to drop.
func faultyListener(t *testing.T, f FaultOptions) *Listener {
	t.Helper()
	l, err := Listen("127.0.0.1:0", Options{Faults: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// send makes one request with a fresh connection, so a dropped connection
// is not retried by the transport.
func send(t *testing.T, l *Listener, method, path, body string) (int, http.Header, error) {
	t.Helper()
	req, err := http.NewRequest(method, l.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(DefaultUsername, DefaultPassword)
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	c := &http.Client{
		Transport:     &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header, nil
}

func TestFaults(t *testing.T) {
	cases := map[string]struct {
		faults     FaultOptions
		method     string
		path       string
		body       string
		wantStatus int
		wantErr    bool
		wantRetry  string
	}{
		"429 with Retry-After": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultTooManyRequests}, RetryAfter: 3 * time.Second},
			method: "GET", path: "/rest/1000/projects", wantStatus: 429, wantRetry: "3",
		},
		"503 with default Retry-After": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultUnavailable}},
			method: "GET", path: "/rest/1000/projects", wantStatus: 503, wantRetry: "1",
		},
		"502": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultBadGateway}},
			method: "GET", path: "/rest/1000/projects", wantStatus: 502,
		},
		"dropped connection": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultDrop}},
			method: "GET", path: "/rest/1000/projects", wantErr: true,
		},
		"html page": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultHTML}},
			method: "GET", path: "/rest/1000/projects", wantStatus: 200,
		},
		"redirect elsewhere": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultRedirect}},
			method: "GET", path: "/rest/1000/projects", wantStatus: 302,
		},
		"documentation is never faulted": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultInternal}},
			method: "GET", path: "/mail/swagger", wantStatus: 200,
		},
		"method filter spares other methods": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultInternal}, Methods: []string{"POST"}},
			method: "GET", path: "/rest/1000/projects", wantStatus: 200,
		},
		"method filter hits its method": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultInternal}, Methods: []string{"post"}},
			method: "POST", path: "/rest/1000/projects", body: `{"name":"x"}`, wantStatus: 500,
		},
		"path filter spares other paths": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultInternal}, PathPrefix: "lists"},
			method: "GET", path: "/rest/1000/projects", wantStatus: 200,
		},
		"path filter hits its paths": {
			faults: FaultOptions{Rate: 1, Kinds: []string{FaultInternal}, PathPrefix: "lists"},
			method: "GET", path: "/rest/1000/lists", wantStatus: 500,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l := faultyListener(t, tc.faults)
			status, header, err := send(t, l, tc.method, tc.path, tc.body)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("got status %d, want a dropped connection", status)
				}
				if got := l.Server.Faults().Injected[FaultDrop]; got != 1 {
					t.Errorf("drop count %d, want 1", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if status != tc.wantStatus {
				t.Errorf("status %d, want %d", status, tc.wantStatus)
			}
			if tc.wantRetry != "" && header.Get("Retry-After") != tc.wantRetry {
				t.Errorf("Retry-After %q, want %q", header.Get("Retry-After"), tc.wantRetry)
			}
		})
	}
}

// A POST acted on and then dropped leaves the object on the server although
// the client saw only a broken connection: the case retries must not repeat.
func TestFaultsActThenDrop(t *testing.T) {
	l := faultyListener(t, FaultOptions{ActThenDropRate: 1})
	if _, _, err := send(t, l, "POST", "/rest/1000/projects", `{"name":"Once"}`); err == nil {
		t.Fatal("POST answered; want a dropped connection")
	}
	_, total, _ := l.Server.store.Page(nil, "projects", 0, 10)
	if total != 1 {
		t.Fatalf("server holds %d projects after the dropped POST, want 1 (it acted)", total)
	}
	if got := l.Server.Faults().ActThenDrop; got != 1 {
		t.Errorf("act-then-drop count %d, want 1", got)
	}
	// GETs are not affected by the POST-only mode.
	if status, _, err := send(t, l, "GET", "/rest/1000/projects", ""); err != nil || status != 200 {
		t.Errorf("GET after act-then-drop: %d %v", status, err)
	}
}

// The same seed gives the same sequence of faults.
func TestFaultsReproducible(t *testing.T) {
	run := func(seed uint64) string {
		s := New(Options{Faults: FaultOptions{Rate: 0.5, Kinds: []string{FaultInternal, FaultBadGateway}, Seed: seed}})
		var seq strings.Builder
		for range 40 {
			rec := do(t, s, "GET", "/rest/1000/projects", nil)
			fmt.Fprintf(&seq, "%d ", rec.Code)
		}
		return seq.String()
	}
	a, b, c := run(7), run(7), run(8)
	if a != b {
		t.Errorf("seed 7 gave two sequences:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 gave the same sequence %s", a)
	}
	if !strings.Contains(a, "200") || (!strings.Contains(a, "500") && !strings.Contains(a, "502")) {
		t.Errorf("rate 0.5 should mix faults and answers: %s", a)
	}
}

func TestFaultOptionsValidate(t *testing.T) {
	cases := map[string]struct {
		f       FaultOptions
		wantErr string
	}{
		"zero":           {},
		"rate above one": {f: FaultOptions{Rate: 1.5}, wantErr: "between 0 and 1"},
		"negative drop":  {f: FaultOptions{ActThenDropRate: -0.1}, wantErr: "between 0 and 1"},
		"unknown kind":   {f: FaultOptions{Kinds: []string{"418"}}, wantErr: `unknown fault kind "418"`},
		"corrupt kinds":  {f: FaultOptions{Rate: 1, Kinds: CorruptFaults}},
		"known kinds":    {f: FaultOptions{Rate: 0.2, Kinds: []string{"429", "drop"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.f.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}
