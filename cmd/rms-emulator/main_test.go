package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to write from run's goroutine while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// goRun starts run in a goroutine on a free loopback port with portFile,
// waits until it serves (runReady's signal, with a 10s limit) and returns
// the base URL from the port file and the channel of run's result.
func goRun(ctx context.Context, t *testing.T, portFile string, args []string, stdout, stderr *syncBuffer) (string, <-chan error) {
	t.Helper()
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- runReady(ctx, append([]string{"-addr", "127.0.0.1:0", "-port-file", portFile}, args...), stdout, stderr, func() { close(ready) })
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("run ended early: %v; stderr: %s", err, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("run was not serving after 10s; stderr: %s", stderr.String())
	}
	b, err := os.ReadFile(portFile)
	if err != nil {
		t.Fatalf("run serves, but its port file is not there: %v", err)
	}
	return string(b), done
}

func TestRunServesUntilCancelled(t *testing.T) {
	portFile := filepath.Join(t.TempDir(), "url")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	baseURL, done := goRun(ctx, t, portFile, []string{
		"-customer-id", "77", "-password", `p"w${x}`, "-retire", "campaigns=moved to flows", "-retire", "forms/3=gone too", "-log-requests",
	}, &stdout, &stderr)
	if !strings.HasPrefix(baseURL, "http://127.0.0.1:") {
		t.Fatalf("port file holds %q", baseURL)
	}

	req, _ := http.NewRequest(http.MethodGet, baseURL+"/rest/77/campaigns", nil)
	req.SetBasicAuth("rms", `p"w${x}`)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusGone || !strings.Contains(string(body), "moved to flows") {
		t.Errorf("retired path: %d %s", resp.StatusCode, body)
	}

	// The banner is printed once listening, before the port file appears.
	out := stdout.String()
	wantOut := "rms-emulator listening on " + baseURL + "\n" +
		"interactive documentation: " + baseURL + "/mail/swagger (Authorize with the credentials below)\n" +
		"console: " + baseURL + "/console (sign in with an account's user name and password)\n\n" +
		"provider \"rms\" {\n" +
		"  base_url    = \"" + baseURL + "\"\n" +
		"  customer_id = 77\n" +
		"  username    = \"rms\"\n" +
		"  password    = \"p\\\"w$${x}\"\n" +
		"}\n"
	if out != wantOut {
		t.Errorf("stdout =\n%s\nwant\n%s", out, wantOut)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop after cancel")
	}
	if _, err := os.Stat(portFile); !os.IsNotExist(err) {
		t.Errorf("port file left behind: %v", err)
	}
	if log := stderr.String(); !strings.Contains(log, "path=/rest/77/campaigns") || strings.Contains(log, "Basic ") {
		t.Errorf("request log = %q", log)
	}
}

func TestRunRefusesBadArguments(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"remote address", []string{"-addr", "0.0.0.0:0"}, "-allow-remote"},
		{"all interfaces", []string{"-addr", ":0"}, "not a loopback address"},
		{"public host", []string{"-addr", "example.com:80"}, "not a loopback address"},
		{"bad retire", []string{"-retire", "campaigns"}, "path=reason"},
		{"empty reason", []string{"-retire", "campaigns="}, "path=reason"},
		{"stray argument", []string{"-addr", "127.0.0.1:0", "extra"}, "unexpected arguments"},
		{"bad address", []string{"-addr", "nonsense"}, "parsing -addr"},
		{"fault rate above one", []string{"-addr", "127.0.0.1:0", "-fault-rate", "2"}, "between 0 and 1"},
		{"unknown fault kind", []string{"-addr", "127.0.0.1:0", "-fault-rate", "0.1", "-fault-kinds", "429,teapot"}, `unknown fault kind "teapot"`},
		{"negative pending", []string{"-batch-pending", "-1s"}, "-batch-pending must not be negative"},
		{"negative duration", []string{"-batch-min-duration", "-1s"}, "-batch-min-duration must not be negative"},
		{"zero ttl", []string{"-result-url-ttl", "0s"}, "-result-url-ttl must be positive"},
		{"negative rate", []string{"-batch-rows-per-second", "-3"}, "must not be negative"},
		{"bad duration", []string{"-batch-pending", "soon"}, "invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // must fail before serving anyway
			err := run(ctx, tt.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestCheckLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:8080": true, "127.1.2.3:1": true, "[::1]:0": true, "localhost:0": true,
		"0.0.0.0:8080": false, "[::]:0": false, "10.0.0.1:80": false,
	} {
		if err := checkLoopback(addr); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v, want ok=%v", addr, err, ok)
		}
	}
}

func TestAllowRemote(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// With -allow-remote the address check is skipped; a cancelled context
	// then makes run return at once after listening.
	var out syncBuffer
	if err := run(ctx, []string{"-addr", "0.0.0.0:0", "-allow-remote"}, &out, io.Discard); err != nil {
		t.Fatalf("run: %v", err)
	}
	// The URL names a reachable address, not the unspecified one.
	if !strings.Contains(out.String(), "rms-emulator listening on http://127.0.0.1:") {
		t.Errorf("stdout = %q", out.String())
	}
}

// The -batch-* flags reach the emulator: with a long pending time a new
// export stays PENDING.
func TestRunBatchPaceFlags(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	baseURL, done := goRun(ctx, t, filepath.Join(t.TempDir(), "url"), []string{
		"-batch-pending", "1h", "-batch-min-duration", "1h", "-batch-rows-per-second", "5", "-result-url-ttl", "1m", "-export-extra-rows", "3",
	}, &syncBuffer{}, &syncBuffer{})
	call := func(method, path, body string) string {
		req, _ := http.NewRequest(method, baseURL+"/rest/1000"+path, strings.NewReader(body))
		req.SetBasicAuth("rms", "rms-password")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }() // read to the end: Close has nothing to report
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	started := call(http.MethodPost, "/batches/exports/statistics", `{"exportType":"PROJECTS","period":"TODAY"}`)
	id := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(started), `{"batchId":"`), `"}`)
	got := call(http.MethodGet, "/batches/"+id, "")
	if !strings.Contains(got, `"status":"PENDING"`) || !strings.Contains(got, `"total":3`) {
		t.Errorf("batch = %s, want PENDING with the 3 extra rows in total", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}

func startRun(t *testing.T, args ...string) (baseURL string, stdout *syncBuffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // also ends a run that never came to serve
	stdout = &syncBuffer{}
	baseURL, done := goRun(ctx, t, filepath.Join(t.TempDir(), "url"), args, stdout, &syncBuffer{})
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("run did not stop after cancel")
			return nil
		}
	}
	t.Cleanup(func() { _ = stop() })
	return baseURL, stdout, stop
}

func call(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	return callAs(t, "rms", "rms-password", method, url, body)
}

func TestRunFixturesAndDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	fixtures := filepath.Join("..", "..", "examples", "emulator", "fixtures.json")

	url, out, stop := startRun(t, "-fixtures", fixtures, "-data-dir", dir)
	if !strings.Contains(out.String(), "account: a new account in data directory "+dir+"; loaded fixtures: 2 properties, 1 projects, 2 lists with 3 contacts") {
		t.Errorf("stdout = %q", out.String())
	}
	if status, body := call(t, http.MethodGet, url+"/rest/1000/lists/100/contacts/customer-1815", ""); status != http.StatusOK || !strings.Contains(body, `"plan":"pro"`) {
		t.Fatalf("fixture contact: %d %s", status, body)
	}
	if status, body := call(t, http.MethodPut, url+"/rest/1000/lists/100/contacts/customer-1815/subscriptionstatus", `{"status":"UNSUBSCRIBED"}`); status != http.StatusOK {
		t.Fatalf("unsubscribe: %d %s", status, body)
	}
	if err := stop(); err != nil {
		t.Fatalf("run: %v", err)
	}

	url, out, _ = startRun(t, "-fixtures", fixtures, "-data-dir", dir)
	if !strings.Contains(out.String(), "account: restored from "+filepath.Join(dir, "state.json")+"; fixtures not applied again") {
		t.Errorf("stdout = %q", out.String())
	}
	if status, body := call(t, http.MethodGet, url+"/rest/1000/lists/100/contacts/customer-1815", ""); status != http.StatusOK || !strings.Contains(body, `"status":"UNSUBSCRIBED"`) {
		t.Errorf("after restart: %d %s", status, body)
	}
	if _, body := call(t, http.MethodGet, url+"/rest/1000/lists", ""); strings.Count(body, `"name"`) != 2 {
		t.Errorf("lists after restart (fixtures applied once): %s", body)
	}
}

func TestRunVersion(t *testing.T) {
	var out syncBuffer
	if err := run(context.Background(), []string{"-version"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if out.String() != "rms-emulator dev\n" {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestRunRefusesBadFixturesAndDataDir(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"lists":[{"name":"L","contacts":[{"originalId":"a","status":"maybe"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	typo := filepath.Join(dir, "typo.json")
	if err := os.WriteFile(typo, []byte(`{"list":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged")
	if err := os.MkdirAll(damaged, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(damaged, "state.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"missing fixture file", []string{"-fixtures", filepath.Join(dir, "none.json")}, "reading fixtures"},
		{"unknown section", []string{"-fixtures", typo}, `unknown field "list"`},
		{"invalid content", []string{"-fixtures", bad}, `lists[0].contacts[0].status: status must be SUBSCRIBED or UNSUBSCRIBED, got "maybe"`},
		{"damaged state", []string{"-data-dir", damaged}, "move the file away"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0"}, tt.args...), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
