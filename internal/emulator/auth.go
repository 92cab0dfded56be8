package emulator

import (
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// presented is what a request's Authorization header carries: HTTP Basic
// credentials, a bearer token, or nothing the emulator understands.
type presented struct {
	basic, bearer bool
	user, pass    string
	token         string
}

func credentialsOf(r *http.Request) presented {
	if user, pass, ok := r.BasicAuth(); ok {
		return presented{basic: true, user: user, pass: pass}
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	// RFC 9110: the scheme is case-insensitive.
	if ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" {
		return presented{bearer: true, token: strings.TrimSpace(token)}
	}
	return presented{}
}

// accepts reports whether the account accepts the credentials, comparing
// in constant time so the emulator does not teach timing-dependent code to
// anyone copying it. A scheme the account has not configured (no Basic
// user, no token) accepts nothing.
func (s *Server) accepts(p presented) bool {
	switch {
	case p.basic && s.opts.Username != "":
		userOK := subtle.ConstantTimeCompare([]byte(p.user), []byte(s.opts.Username))
		passOK := subtle.ConstantTimeCompare([]byte(p.pass), []byte(s.opts.Password))
		return userOK&passOK == 1
	case p.bearer:
		static := s.opts.Token != "" && subtle.ConstantTimeCompare([]byte(p.token), []byte(s.opts.Token)) == 1
		return static || s.tokens.accepts(p.token)
	}
	return false
}

// authorized checks the request's credentials.
func (s *Server) authorized(r *http.Request) bool { return s.accepts(credentialsOf(r)) }

// refuseCredentials answers 401 with the schemes the account accepts.
func (s *Server) refuseCredentials(w http.ResponseWriter, r *http.Request) {
	if s.opts.Username != "" {
		w.Header().Add("WWW-Authenticate", `Basic realm="rms"`)
	}
	p := credentialsOf(r)
	expired := p.bearer && s.tokens.expired(p.token)
	switch {
	case expired: // RFC 6750, section 3.1: the client should ask for a new token
		w.Header().Add("WWW-Authenticate", `Bearer realm="rms", error="invalid_token", error_description="the token has expired"`)
	case s.opts.Token != "" || s.tokens.enabled():
		w.Header().Add("WWW-Authenticate", `Bearer realm="rms"`)
	}
	msg := "credentials are wrong"
	switch {
	case expired:
		msg = "the bearer token has expired; ask " + OAuth2TokenPath + " for a new one"
	case p.bearer:
		msg = "the bearer token is wrong"
	case !p.basic && (s.opts.Token != "" || s.tokens.enabled()) && s.opts.Username == "":
		msg = "credentials are missing; send Authorization: Bearer <token>"
	case !p.basic:
		msg = "credentials are missing; use HTTP Basic authentication"
	}
	s.writeError(w, apierr.Errorf(http.StatusUnauthorized, "%s", msg))
}

// guardAccount applies, in order, the checks every path under
// /rest/{customerid}/ shares before routing: credentials (401), the customer
// id (404 when not a number, 403 when another account), retired paths (410),
// internal-only domains and unknown collections (404). rest is the path after
// "/rest/". It answers and returns false when the request must stop here.
//
// These run before the mux so that they hold for every method and for paths
// no route matches: an unauthenticated caller learns nothing about which
// paths exist, and a POST to an unknown collection is 404, not 405.
func (s *Server) guardAccount(w http.ResponseWriter, r *http.Request, rest string) bool {
	if !s.authorized(r) {
		s.refuseCredentials(w, r)
		return false
	}
	seg, tail, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(seg, 10, 64)
	if err != nil {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "customer id %q is not a number", seg))
		return false
	}
	if id != s.opts.CustomerID {
		s.writeError(w, apierr.Errorf(http.StatusForbidden, "customer id %d is not the account of these credentials", id))
		return false
	}
	if reason, ok := s.retiredReason(tail); ok {
		s.writeError(w, apierr.Errorf(http.StatusGone, "%s", reason))
		return false
	}
	coll, _, _ := strings.Cut(tail, "/")
	if name, ok := internalDomain(coll); ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "%s is an internal-only domain with no public interface", name))
		return false
	}
	if coll != "" && !s.knownCollections[coll] {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no collection %q", coll))
		return false
	}
	return true
}
