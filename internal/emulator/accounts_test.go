package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Two accounts on one front: alice's (1000) and bob's (2000).
func twoAccounts(t *testing.T) (front *Accounts, alice, bob *Server) {
	t.Helper()
	alice = New(Options{CustomerID: 1000, Username: "alice", Password: "alice-password"})
	bob = New(Options{CustomerID: 2000, Username: "bob", Password: "bob-password"})
	t.Cleanup(alice.Close)
	t.Cleanup(bob.Close)
	front, err := NewAccounts(alice, bob)
	if err != nil {
		t.Fatal(err)
	}
	return front, alice, bob
}

var (
	asAlice = withAuth("alice", "alice-password")
	asBob   = withAuth("bob", "bob-password")
)

// bobsAccount fills bob's account with one object of every kind and returns
// the paths (below /rest/{customerid}/) that name them, and the path of an
// export's result in the object store.
func bobsAccount(t *testing.T, front http.Handler) (paths []string, resultPath string) {
	t.Helper()
	create := func(path string, body any, opts ...reqOption) map[string]any {
		t.Helper()
		rec := do(t, front, http.MethodPost, "/rest/2000/"+path, body, append([]reqOption{asBob}, opts...)...)
		if rec.Code != http.StatusCreated && rec.Code != http.StatusAccepted {
			t.Fatalf("bob's POST %s: status %d: %s", path, rec.Code, rec.Body)
		}
		return decodeObject(t, rec)
	}
	list := idOf(t, create("lists", map[string]any{"name": "bob's customers"}))
	create("lists/"+list+"/contacts", map[string]any{"originalId": "c1", "email": "c1@example.com"})
	hook := idOf(t, create("webhooks", map[string]any{"url": "https://hooks.example.com/bob", "events": []string{"contact.created"}}))
	project := idOf(t, create("projects", map[string]any{"name": "bob's project"}))
	imp := create("lists/"+list+"/imports", map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD", "identityColumn": "originalId"})["id"].(string)
	upload := create("lists/"+list+"/recipients/"+imp, "originalId,email\nc2,c2@example.com\n", withHeader("Content-Type", "text/csv"))
	export := create("batches/exports/statistics", map[string]any{"exportType": "OPENS", "period": "TODAY"})
	exportID := export["batchId"].(string)

	rec := do(t, front, http.MethodGet, "/rest/2000/batches/"+exportID+"/result/url", nil, asBob, withHeader("Accept", "text/plain"))
	wantStatus(t, rec, http.StatusOK)
	u, err := url.Parse(strings.TrimSpace(rec.Body.String()))
	if err != nil {
		t.Fatalf("result URL %q: %v", rec.Body.String(), err)
	}
	return []string{
		"lists",
		"lists/" + list,
		"lists/" + list + "/contacts",
		"lists/" + list + "/contacts/c1",
		"lists/" + list + "/contacts/c2",
		"webhooks",
		"webhooks/" + hook,
		"projects",
		"projects/" + project,
		"batches/" + upload["batchId"].(string),
		"batches/" + exportID,
	}, u.Path
}

// readAll is what bob sees at each path, as raw JSON.
func readAll(t *testing.T, front http.Handler, paths []string) map[string]string {
	t.Helper()
	seen := map[string]string{}
	for _, p := range paths {
		rec := do(t, front, http.MethodGet, "/rest/2000/"+p, nil, asBob)
		wantStatus(t, rec, http.StatusOK)
		seen[p] = rec.Body.String()
	}
	return seen
}

// The service's promise to each customer: nobody else's credentials read
// or change their data. Every request alice can make at bob's objects,
// under bob's customer id or her own, is refused, never reaches bob's
// account, and leaves it as it was.
func TestAccountsIsolateCustomers(t *testing.T) {
	front, alice, bob := twoAccounts(t)
	paths, resultPath := bobsAccount(t, front)
	before := readAll(t, front, paths)
	bobRequests := bob.Requests().Total

	writes := []struct {
		method string
		body   any
	}{
		{http.MethodGet, nil},
		{http.MethodPut, map[string]any{"name": "taken over", "properties": map[string]any{"email": "alice@example.com"}}},
		{http.MethodPost, map[string]any{"name": "planted", "originalId": "planted"}},
		{http.MethodDelete, nil},
	}
	extra := []string{"lists/PLACEHOLDER/contacts/c1/subscriptionstatus", "batches/exports/statistics"}
	targets := append(append([]string{}, paths...), strings.Replace(extra[0], "PLACEHOLDER", strings.TrimPrefix(paths[1], "lists/"), 1), extra[1])
	for _, p := range targets {
		for _, w := range writes {
			// Under bob's customer id: her credentials are not his account's.
			rec := do(t, front, w.method, "/rest/2000/"+p, w.body, asAlice)
			if rec.Code != http.StatusForbidden {
				t.Errorf("alice %s /rest/2000/%s: status %d, want 403; body %s", w.method, p, rec.Code, rec.Body)
			}
			// Mixed credentials (her user name, his password) are nobody's.
			rec = do(t, front, w.method, "/rest/2000/"+p, w.body, withAuth("alice", "bob-password"))
			if rec.Code != http.StatusUnauthorized {
				t.Errorf("alice with bob's password %s /rest/2000/%s: status %d, want 401", w.method, p, rec.Code)
			}
			rec = do(t, front, w.method, "/rest/2000/"+p, w.body, withoutAuth())
			if rec.Code != http.StatusUnauthorized {
				t.Errorf("no credentials %s /rest/2000/%s: status %d, want 401", w.method, p, rec.Code)
			}
		}
		// Under her own id, bob's ids name nothing she has: reads of single
		// objects are 404, listings hold none of bob's objects.
		rec := do(t, front, http.MethodGet, "/rest/1000/"+p, nil, asAlice)
		switch {
		case rec.Code == http.StatusOK && strings.Contains(rec.Body.String(), "bob"):
			t.Errorf("alice GET /rest/1000/%s shows bob's data: %s", p, rec.Body)
		case rec.Code != http.StatusOK && rec.Code != http.StatusNotFound && rec.Code != http.StatusMethodNotAllowed:
			t.Errorf("alice GET /rest/1000/%s: status %d, want 200 without bob's data, 404, or 405 (a path only written to)", p, rec.Code)
		}
	}
	if got := bob.Requests().Total; got != bobRequests {
		t.Errorf("bob's account served %d requests it should never have seen", got-bobRequests)
	}

	// And bob's credentials do not reach alice's account either.
	if rec := do(t, front, http.MethodGet, "/rest/1000/lists", nil, asBob); rec.Code != http.StatusForbidden {
		t.Errorf("bob GET /rest/1000/lists: status %d, want 403", rec.Code)
	}

	if diff := cmp.Diff(before, readAll(t, front, paths)); diff != "" {
		t.Errorf("bob's data changed (-before +after):\n%s", diff)
	}
	var lists []map[string]any
	if err := json.Unmarshal(do(t, front, http.MethodGet, "/rest/1000/lists", nil, asAlice).Body.Bytes(), &lists); err != nil || len(lists) != 0 {
		t.Errorf("alice's lists = %v (%v), want none", lists, err)
	}
	if alice.Requests().Total == 0 {
		t.Error("alice's account served nothing: her requests went elsewhere")
	}

	// A result URL needs no credentials: the account that minted it serves
	// it, and a token nobody minted is 404.
	wantStatus(t, do(t, front, http.MethodGet, resultPath, nil, withoutAuth()), http.StatusOK)
	wantStatus(t, do(t, front, http.MethodGet, objectStorePrefix+"0123456789abcdef0123456789abcdef", nil, withoutAuth()), http.StatusNotFound)
}

func TestNewAccountsRefusesAmbiguity(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		a, b Options
		want string
	}{
		{"same customer id", Options{CustomerID: 1, Username: "a"}, Options{CustomerID: 1, Username: "b"}, "customer id 1 is served twice"},
		{"same user name", Options{CustomerID: 1, Username: "a"}, Options{CustomerID: 2, Username: "a"}, `accounts 1 and 2 have the same user name "a"`},
		{"same data directory", Options{CustomerID: 1, Username: "a", DataDir: dir}, Options{CustomerID: 2, Username: "b", DataDir: dir + "/"}, "accounts 1 and 2 have the same data directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Compare options only: data directories are not opened here.
			a, b := New(Options{CustomerID: tt.a.CustomerID, Username: tt.a.Username}), New(Options{CustomerID: tt.b.CustomerID, Username: tt.b.Username})
			a.opts.DataDir, b.opts.DataDir = tt.a.DataDir, tt.b.DataDir
			defer a.Close()
			defer b.Close()
			_, err := NewAccounts(a, b)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewAccounts: %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := NewAccounts(); err == nil {
		t.Error("NewAccounts with no account: no error")
	}
}

// ListenAccounts serves every account on one port.
func TestListenAccounts(t *testing.T) {
	l, err := ListenAccounts("127.0.0.1:0",
		Options{CustomerID: 1000, Username: "alice", Password: "alice-password"},
		Options{CustomerID: 2000, Username: "bob", Password: "bob-password"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	if len(l.Accounts) != 2 || l.Server != l.Accounts[0] {
		t.Fatalf("Accounts = %d servers, Server first: %v", len(l.Accounts), l.Server == l.Accounts[0])
	}
	for _, tt := range []struct {
		user, pass string
		id         int64
	}{{"alice", "alice-password", 1000}, {"bob", "bob-password", 2000}} {
		req, _ := http.NewRequest(http.MethodPost, l.URL+"/rest/"+strconv.FormatInt(tt.id, 10)+"/lists", strings.NewReader(`{"name":"mine"}`))
		req.SetBasicAuth(tt.user, tt.pass)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Errorf("%s creating a list in %d: status %d", tt.user, tt.id, resp.StatusCode)
		}
	}
	for i, s := range l.Accounts {
		if got := s.Requests().Total; got != 1 {
			t.Errorf("account %d served %d requests, want its own 1", i, got)
		}
	}
}
