package emulator

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// Accounts serves several accounts on one address, as the service serves
// every customer on one host. Each account is a Server of its own, with its
// own store, batches, result URLs, request counts and faults, so no request
// can reach another account's data through shared state: isolation holds by
// construction, and the tests in accounts_test.go check it from outside.
//
// A request under /rest/ goes to the account whose credentials (Basic or
// bearer token) it carries,
// which then refuses (403) a {customerid} that is not its own. A request
// whose credentials match no account goes to the first account, which
// refuses it (401) like any wrong credentials. Result URLs
// (/objectstore/{token}) need no credentials: the account that minted the
// token serves it. The console (/console/{customerid}/...) is served by the
// account of its customer id, and /console, with more than one account, by
// an index of the accounts the credentials open (console_accounts.go).
// Everything else (the OpenAPI document) holds no account data and is
// served by the first account.
type Accounts struct {
	servers []*Server
}

// NewAccounts fronts servers (at least one). Customer ids must differ, and
// so must user names and tokens, so that credentials name exactly one
// account; two accounts may not share a data directory.
func NewAccounts(servers ...*Server) (*Accounts, error) {
	if len(servers) == 0 {
		return nil, errors.New("emulator: no account to serve")
	}
	ids := map[int64]bool{}
	users := map[string]int64{}
	tokens := map[string]int64{}
	dirs := map[string]int64{}
	for _, s := range servers {
		o := s.opts
		if ids[o.CustomerID] {
			return nil, fmt.Errorf("emulator: customer id %d is served twice; give each account its own", o.CustomerID)
		}
		ids[o.CustomerID] = true
		if other, ok := users[o.Username]; ok {
			return nil, fmt.Errorf("emulator: accounts %d and %d have the same user name %q; give each account its own user", other, o.CustomerID, o.Username)
		}
		if o.Username != "" { // a token-only account has no user
			users[o.Username] = o.CustomerID
		}
		if o.Token != "" {
			if other, ok := tokens[o.Token]; ok {
				// The token itself stays out of the message: it is a secret.
				return nil, fmt.Errorf("emulator: accounts %d and %d have the same token; give each account its own", other, o.CustomerID)
			}
			tokens[o.Token] = o.CustomerID
		}
		if o.DataDir != "" {
			dir := filepath.Clean(o.DataDir)
			if other, ok := dirs[dir]; ok {
				return nil, fmt.Errorf("emulator: accounts %d and %d have the same data directory %s; give each account its own", other, o.CustomerID, dir)
			}
			dirs[dir] = o.CustomerID
		}
	}
	if err := checkOAuth2Clients(servers); err != nil {
		return nil, err
	}
	return &Accounts{servers: servers}, nil
}

// Servers returns the accounts in the order given to NewAccounts.
func (a *Accounts) Servers() []*Server { return append([]*Server(nil), a.servers...) }

// ServeHTTP hands the request to the account it belongs to.
func (a *Accounts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == consoleBase && len(a.servers) > 1 {
		a.serveConsoleIndex(w, r)
		return
	}
	a.route(r).ServeHTTP(w, r)
}

// route picks the account that answers r.
func (a *Accounts) route(r *http.Request) *Server {
	switch {
	case strings.HasPrefix(r.URL.Path, "/rest/"):
		if s := a.byCredentials(r); s != nil {
			return s
		}
	case r.URL.Path == OAuth2TokenPath:
		if s := a.byOAuth2Client(r); s != nil {
			return s
		}
	case strings.HasPrefix(r.URL.Path, consoleBase+"/"):
		id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, consoleBase+"/"), "/")
		for _, s := range a.servers {
			if strconv.FormatInt(s.opts.CustomerID, 10) == id {
				return s
			}
		}
	case strings.HasPrefix(r.URL.Path, objectStorePrefix):
		token := strings.TrimPrefix(r.URL.Path, objectStorePrefix)
		for _, s := range a.servers {
			if s.exportsAPI.hasResult(token) {
				return s
			}
		}
	}
	return a.servers[0]
}

// byCredentials is the account whose user name and password, or token, r
// carries, or nil. Every account is compared, in constant time, whatever
// matches first, so the time taken does not tell which accounts exist.
func (a *Accounts) byCredentials(r *http.Request) *Server {
	p := credentialsOf(r)
	var found *Server
	for _, s := range a.servers {
		if s.accepts(p) {
			found = s
		}
	}
	return found
}

// byOAuth2Client is the account whose OAuth 2.0 client a token request
// names (in its Basic credentials or its form), or nil.
func (a *Accounts) byOAuth2Client(r *http.Request) *Server {
	id := ""
	if user, _, ok := r.BasicAuth(); ok {
		id, _ = url.QueryUnescape(user)
	} else {
		r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
		if err := r.ParseForm(); err == nil {
			id = r.PostForm.Get("client_id")
		}
	}
	for _, s := range a.servers {
		if s.tokens.hasClient(id) {
			return s
		}
	}
	return nil
}

// checkOAuth2Clients refuses a client id served by two accounts: a token
// request must name exactly one.
func checkOAuth2Clients(servers []*Server) error {
	owner := map[string]int64{}
	for _, s := range servers {
		for id := range s.opts.OAuth2Clients {
			if other, ok := owner[id]; ok {
				return fmt.Errorf("emulator: accounts %d and %d have the same OAuth 2.0 client %q; give each account its own", other, s.opts.CustomerID, id)
			}
			owner[id] = s.opts.CustomerID
		}
	}
	return nil
}
