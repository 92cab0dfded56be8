package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
	"github.com/rms-labs/terraform-provider-rms/internal/outofband"
)

// Env is one emulator serving one test.
type Env struct {
	URL        string
	CustomerID int64
	Username   string
	Password   string
	Emulator   *emulator.Server

	opts     emulator.Options
	listener *emulator.Listener
	// shared is set when other Envs are accounts of the same listener
	// (NewAccountEnvs); such an Env cannot Restart on its own.
	shared bool
}

// NewEnv starts an emulator on 127.0.0.1 for the test and stops it when the
// test ends. Each test has its own, so tests run in parallel. Without
// TF_ACC it skips the test first (SkipUnlessAcceptance): a test that needs
// an emulator but no Terraform starts one with emulator.Listen.
func NewEnv(t testing.TB, opts emulator.Options) *Env {
	t.Helper()
	SkipUnlessAcceptance(t)
	e := &Env{opts: opts}
	e.start(t)
	t.Cleanup(func() { _ = e.listener.Close() })
	return e
}

// NewAccountEnvs starts one emulator on 127.0.0.1 that serves an account
// for each of opts (emulator.ListenAccounts), as the service serves every
// customer on one host, and returns an Env per account, in order: the
// same URL, each with its own customer id and credentials. Give each
// account its own CustomerID and Username. Without TF_ACC it skips the
// test first, as NewEnv does.
func NewAccountEnvs(t testing.TB, opts ...emulator.Options) []*Env {
	t.Helper()
	SkipUnlessAcceptance(t)
	l, err := emulator.ListenAccounts("127.0.0.1:0", opts...)
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	envs := make([]*Env, len(l.Accounts))
	for i, s := range l.Accounts {
		o := s.Options()
		envs[i] = &Env{
			URL: l.URL, CustomerID: o.CustomerID, Username: o.Username, Password: o.Password, Emulator: s,
			opts: opts[i], listener: l, shared: len(l.Accounts) > 1,
		}
	}
	return envs
}

func (e *Env) start(t testing.TB) {
	t.Helper()
	l, err := emulator.Listen("127.0.0.1:0", e.opts)
	if err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	o := l.Server.Options()
	e.listener, e.URL, e.Emulator = l, l.URL, l.Server
	e.CustomerID, e.Username, e.Password = o.CustomerID, o.Username, o.Password
}

// Restart stops the emulator and starts a new one with the same options,
// on a new port: with Options.DataDir set, the new one restores the
// account the old one left. URL and Emulator then name the new one; a
// configuration that must follow it reads the URL through URLVariable.
// Call it from the test's goroutine (a PreConfig), not concurrently with
// other uses of the Env.
func (e *Env) Restart(t testing.TB) {
	t.Helper()
	if e.shared {
		t.Fatal("acctest: an Env of NewAccountEnvs shares its emulator with other accounts and cannot restart alone")
	}
	if err := e.listener.Close(); err != nil {
		t.Fatalf("stopping emulator: %v", err)
	}
	e.start(t)
}

// URLVariable is a Terraform variable value (for a TestStep's
// ConfigVariables) that is the emulator's URL at the moment the step writes
// its variables, so that it follows a Restart made in the step's PreConfig.
func (e *Env) URLVariable() config.Variable { return urlVariable{e} }

type urlVariable struct{ e *Env }

func (v urlVariable) MarshalJSON() ([]byte, error) { return json.Marshal(v.e.URL) }

// ProviderBlockFromVariable is the provider configuration that reaches this
// emulator through var.base_url (declared too), for steps whose
// ConfigVariables set "base_url" to URLVariable.
func (e *Env) ProviderBlockFromVariable() string {
	return fmt.Sprintf(`
variable "base_url" {
  type = string
}

provider "rms" {
  base_url            = var.base_url
  customer_id         = %d
  username            = %q
  password            = %q
  batch_poll_interval = "1s"
}
`, e.CustomerID, e.Username, e.Password)
}

// ProviderBlock is the provider configuration that reaches this emulator.
// Retries wait little so fault tests stay fast.
func (e *Env) ProviderBlock() string { return e.ProviderBlockNaming(e.CustomerID) }

// ProviderBlockNaming is ProviderBlock with this account's credentials but
// customer_id set to customerID: another account's id, for tests of what
// the service refuses.
func (e *Env) ProviderBlockNaming(customerID int64) string {
	return fmt.Sprintf(`
provider "rms" {
  base_url            = %q
  customer_id         = %d
  username            = %q
  password            = %q
  batch_poll_interval = "1s"
}
`, e.URL, customerID, e.Username, e.Password)
}

// Config prefixes the provider block to the given configuration.
func (e *Env) Config(hcl ...string) string {
	return e.ProviderBlock() + strings.Join(hcl, "\n")
}

// Do sends a raw request below /rest/{customerid}/ as an out-of-band user of
// the account would, and decodes a JSON answer into out when out is not nil.
// It returns the status code. It takes no context of the test's: a cleanup
// may call it after the test's context ended.
func (e *Env) Do(t testing.TB, method, path string, body any, out any) int {
	t.Helper()
	status, raw, err := e.account().JSON(context.Background(), method, path, body)
	if err != nil && status == 0 { // an answer cut short is still an answer, as far as it goes
		t.Fatal(err)
	}
	if out != nil && status < 300 && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: decoding %q: %v", method, path, raw, err)
		}
	}
	return status
}

// account is the emulator's account as an out-of-band user reaches it.
func (e *Env) account() outofband.Account {
	return outofband.Account{Base: fmt.Sprintf("%s/rest/%d", e.URL, e.CustomerID), Username: e.Username, Password: e.Password}
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
// so tests of fault injection can look at the emulator's record. It asks
// again at once: the emulator draws each request's fault independently
// (FaultOptions.Rate), so waiting would not make the next answer likelier
// to be clean, and its Retry-After is advice it does not enforce.
func (e *Env) Inspect(t testing.TB, path string, out any) {
	t.Helper()
	for attempt := 0; attempt < 50; attempt++ {
		status, err := e.try(http.MethodGet, path, out)
		if err == nil && status >= 200 && status < 300 {
			return
		}
	}
	t.Fatalf("GET %s kept failing", path)
}

// try is one request that reports transport errors instead of failing the
// test; an answer of 2xx that out cannot hold (an injected unreadable one)
// is an error too, so that Inspect asks again.
func (e *Env) try(method, path string, out any) (int, error) {
	status, raw, err := e.account().JSON(context.Background(), method, path, nil)
	if err != nil {
		return 0, err
	}
	if status < 300 && out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return 0, err
		}
	}
	return status, nil
}
