package emulator

// The Token domain: OAuth 2.0 client credentials (RFC 6749, section 4.4).
// The interface names Authentication and Token domains but shows neither
// their paths nor their payloads, so the wire here is a choice, the one
// gateways in front of such services commonly make: a form-encoded POST
// to {base_url}/oauth2/token, the client authenticated with HTTP Basic or
// with client_id and client_secret in the form, and a JSON answer of
// access_token, token_type and expires_in. The token is then a bearer
// token on every call, until it expires.

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// OAuth2TokenPath is where the emulator issues tokens, below base_url.
const OAuth2TokenPath = "/oauth2/token"

// forgetExpiredAfter is how long an expired token is still told apart
// from an unknown one (401 "expired" rather than "wrong"), after which it
// is forgotten so that a long-running emulator does not grow.
const forgetExpiredAfter = time.Hour

// OAuth2TokenStats counts what the token endpoint and the tokens it issued
// saw, for tests that assert how often a client renews.
type OAuth2TokenStats struct {
	// Issued counts tokens issued.
	Issued int64
	// Refused counts token requests refused (wrong client, bad request).
	Refused int64
	// Presented counts the issued tokens that some accepted request
	// carried: a token issued and never presented was a request too many.
	Presented int64
	// Expired counts requests refused because their token had expired.
	Expired int64
}

// tokenIssuer holds one account's OAuth 2.0 clients and the tokens issued
// to them. Tokens live in memory only: a restarted emulator has forgotten
// them, as a gateway rotating its keys would, and clients must ask again.
type tokenIssuer struct {
	clients map[string]string // client id -> secret
	ttl     time.Duration
	now     func() time.Time

	mu     sync.Mutex
	tokens map[string]*issuedToken
	stats  OAuth2TokenStats
}

type issuedToken struct {
	expires   time.Time
	presented bool
}

func newTokenIssuer(o Options) *tokenIssuer {
	return &tokenIssuer{clients: o.OAuth2Clients, ttl: o.TokenTTL, now: o.Now, tokens: map[string]*issuedToken{}}
}

// enabled reports whether the account has OAuth 2.0 clients.
func (t *tokenIssuer) enabled() bool { return len(t.clients) > 0 }

// hasClient reports whether id is one of the account's clients.
func (t *tokenIssuer) hasClient(id string) bool {
	_, ok := t.clients[id]
	return ok
}

// authenticate checks a client's secret in constant time.
func (t *tokenIssuer) authenticate(id, secret string) bool {
	want, ok := t.clients[id]
	if !ok {
		// Compare anyway, so that the time taken does not tell which
		// client ids exist.
		_ = subtle.ConstantTimeCompare([]byte(secret), []byte(secret))
		return false
	}
	return subtle.ConstantTimeCompare([]byte(secret), []byte(want)) == 1
}

// issue mints a token valid for the issuer's lifetime.
func (t *tokenIssuer) issue() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("minting a token: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(b)
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, v := range t.tokens {
		if now.Sub(v.expires) > forgetExpiredAfter {
			delete(t.tokens, k)
		}
	}
	t.tokens[tok] = &issuedToken{expires: now.Add(t.ttl)}
	t.stats.Issued++
	return tok, nil
}

// accepts reports whether tok is an issued token still valid, and notes
// that it was presented.
func (t *tokenIssuer) accepts(tok string) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	it, ok := t.tokens[tok]
	if !ok || !t.now().Before(it.expires) {
		return false
	}
	if !it.presented {
		it.presented = true
		t.stats.Presented++
	}
	return true
}

// expired reports whether tok was issued here and has expired, counting
// the refusal.
func (t *tokenIssuer) expired(tok string) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	it, ok := t.tokens[tok]
	if !ok || t.now().Before(it.expires) {
		return false
	}
	t.stats.Expired++
	return true
}

// revokeAll forgets every token issued, as a restart would.
func (t *tokenIssuer) revokeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.tokens)
}

func (t *tokenIssuer) refused() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stats.Refused++
}

func (t *tokenIssuer) snapshot() OAuth2TokenStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// tokensAPI serves the Token domain: OAuth 2.0 client credentials at
// OAuth2TokenPath. The Server checks the tokens it issues (auth.go).
type tokensAPI struct {
	*base
	tokens *tokenIssuer
}

// tokenError is an error answer of the token endpoint, in the shape of
// RFC 6749, section 5.2, not the emulator's usual error body: OAuth 2.0
// clients read that shape.
type tokenError struct {
	status      int
	code        string
	description string
}

// issueToken answers POST /oauth2/token.
func (s *tokensAPI) issueToken(w http.ResponseWriter, r *http.Request) {
	id, basic, err := s.tokenClient(r)
	if err == nil {
		var tok string
		if tok, err = s.tokens.issue(); err == nil {
			writeTokenAnswer(w, tok, s.tokens.ttl, r.PostForm.Get("scope"))
			return
		}
		s.log.Error("issuing a token", "error", err)
		writeTokenError(w, &tokenError{status: http.StatusInternalServerError, code: "server_error", description: "no token could be minted"}, false)
		return
	}
	s.tokens.refused()
	var te *tokenError
	if !errors.As(err, &te) {
		te = &tokenError{status: http.StatusBadRequest, code: "invalid_request", description: err.Error()}
	}
	s.log.Info("token refused", "client_id", id, "error", te.code)
	writeTokenError(w, te, basic)
}

func (e *tokenError) Error() string { return e.code + ": " + e.description }

// tokenClient checks a token request and returns the client it
// authenticates, and whether it came with HTTP Basic.
func (s *tokensAPI) tokenClient(r *http.Request) (string, bool, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		return "", false, &tokenError{http.StatusBadRequest, "invalid_request", "send the request as application/x-www-form-urlencoded"}
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return "", false, &tokenError{http.StatusBadRequest, "invalid_request", "the form cannot be read"}
	}
	if gt := r.PostForm.Get("grant_type"); gt != "client_credentials" {
		return "", false, &tokenError{http.StatusBadRequest, "unsupported_grant_type", fmt.Sprintf("grant_type %q is not supported; use client_credentials", gt)}
	}
	user, pass, basic := r.BasicAuth()
	formID, formSecret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	var id, secret string
	switch {
	case basic && formSecret != "":
		return "", true, &tokenError{http.StatusBadRequest, "invalid_request", "the client authenticated twice: use HTTP Basic or client_secret in the form, not both"}
	case basic:
		// RFC 6749, section 2.3.1: both are form-encoded before Basic.
		var e1, e2 error
		id, e1 = url.QueryUnescape(user)
		secret, e2 = url.QueryUnescape(pass)
		if e1 != nil || e2 != nil {
			return "", true, &tokenError{http.StatusBadRequest, "invalid_request", "the Basic credentials are not form-encoded"}
		}
	default:
		id, secret = formID, formSecret
	}
	if id == "" {
		return "", basic, &tokenError{http.StatusUnauthorized, "invalid_client", "no client credentials: send client_id and client_secret"}
	}
	if !s.tokens.authenticate(id, secret) {
		return id, basic, &tokenError{http.StatusUnauthorized, "invalid_client", "the client id or secret is wrong"}
	}
	return id, basic, nil
}

func writeTokenAnswer(w http.ResponseWriter, tok string, ttl time.Duration, scope string) {
	answer := map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   int64(ttl / time.Second),
	}
	if scope != "" {
		answer["scope"] = scope
	}
	writeTokenJSON(w, http.StatusOK, answer)
}

func writeTokenError(w http.ResponseWriter, e *tokenError, basic bool) {
	if e.status == http.StatusUnauthorized && basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="rms-oauth2"`)
	}
	writeTokenJSON(w, e.status, map[string]string{"error": e.code, "error_description": e.description})
}

func writeTokenJSON(w http.ResponseWriter, status int, v any) {
	// RFC 6749, section 5.1: tokens must not be cached.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.Header().Set("Content-Type", jsonContentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to tell it
}

// ParseOAuth2Client reads a client in the form ID:SECRET (the form of
// rms-emulator -oauth2-client).
func ParseOAuth2Client(v string) (id, secret string, err error) {
	id, secret, ok := strings.Cut(v, ":")
	if !ok || id == "" || secret == "" {
		return "", "", errors.New("want ID:SECRET, both non-empty")
	}
	return id, secret, nil
}
