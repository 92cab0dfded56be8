package acctest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Env is one emulator serving one test.
type Env struct {
	URL        string
	CustomerID int64
	Username   string
	Password   string
	Emulator   *emulator.Server
}

// NewEnv starts an emulator on 127.0.0.1 for the test and stops it when the
// test ends. Each test has its own, so tests run in parallel.
func NewEnv(t testing.TB, opts emulator.Options) *Env {
	t.Helper()
	l, err := emulator.Listen("127.0.0.1:0", opts)
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	o := l.Server.Options()
	return &Env{URL: l.URL, CustomerID: o.CustomerID, Username: o.Username, Password: o.Password, Emulator: l.Server}
}

// ProviderBlock is the provider configuration that reaches this emulator.
// Retries wait little so fault tests stay fast.
func (e *Env) ProviderBlock() string {
	return fmt.Sprintf(`
provider "rms" {
  base_url            = %q
  customer_id         = %d
  username            = %q
  password            = %q
  batch_poll_interval = "1s"
}
`, e.URL, e.CustomerID, e.Username, e.Password)
}

// Config prefixes the provider block to the given configuration.
func (e *Env) Config(hcl ...string) string {
	return e.ProviderBlock() + strings.Join(hcl, "\n")
}

// Do sends a raw request below /rest/{customerid}/ as an out-of-band user of
// the account would, and decodes a JSON answer into out when out is not nil.
// It returns the status code.
func (e *Env) Do(t testing.TB, method, path string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("encoding body: %v", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, fmt.Sprintf("%s/rest/%d/%s", e.URL, e.CustomerID, strings.TrimPrefix(path, "/")), rd)
	if err != nil {
		t.Fatalf("building request: %v", err)
	}
	req.SetBasicAuth(e.Username, e.Password)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: decoding %q: %v", method, path, raw, err)
		}
	}
	return resp.StatusCode
}

// MustDo is Do that fails the test unless the status is 2xx.
func (e *Env) MustDo(t testing.TB, method, path string, body any, out any) {
	t.Helper()
	if status := e.Do(t, method, path, body, out); status < 200 || status > 299 {
		t.Fatalf("%s %s: status %d", method, path, status)
	}
}

// Inspect reads path below /rest/{customerid}/ into out as MustDo does, but
// rides out injected faults (429, 5xx, dropped connections) by asking again,
// so tests of fault injection can look at the emulator's record.
func (e *Env) Inspect(t testing.TB, path string, out any) {
	t.Helper()
	for attempt := 0; attempt < 50; attempt++ {
		status, err := e.try(http.MethodGet, path, out)
		if err == nil && status >= 200 && status < 300 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("GET %s kept failing", path)
}

// try is one GET that reports transport errors instead of failing the test.
func (e *Env) try(method, path string, out any) (int, error) {
	req, err := http.NewRequest(method, fmt.Sprintf("%s/rest/%d/%s", e.URL, e.CustomerID, strings.TrimPrefix(path, "/")), nil)
	if err != nil {
		return 0, err
	}
	req.SetBasicAuth(e.Username, e.Password)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode < 300 && out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return 0, err
		}
	}
	return resp.StatusCode, nil
}
