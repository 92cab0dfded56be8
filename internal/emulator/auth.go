package emulator

import (
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"
)

// authorized checks the request's HTTP Basic credentials in constant time, so
// the emulator does not teach timing-dependent code to anyone copying it.
func (s *Server) authorized(r *http.Request) bool {
	user, pass, ok := r.BasicAuth()
	if !ok {
		return false
	}
	userOK := subtle.ConstantTimeCompare([]byte(user), []byte(s.opts.Username)) == 1
	passOK := subtle.ConstantTimeCompare([]byte(pass), []byte(s.opts.Password)) == 1
	return userOK && passOK
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
		w.Header().Set("WWW-Authenticate", `Basic realm="rms"`)
		msg := "credentials are wrong"
		if _, _, ok := r.BasicAuth(); !ok {
			msg = "credentials are missing; use HTTP Basic authentication"
		}
		s.writeError(w, errorf(http.StatusUnauthorized, "%s", msg))
		return false
	}
	seg, tail, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(seg, 10, 64)
	if err != nil {
		s.writeError(w, errorf(http.StatusNotFound, "customer id %q is not a number", seg))
		return false
	}
	if id != s.opts.CustomerID {
		s.writeError(w, errorf(http.StatusForbidden, "customer id %d is not the account of these credentials", id))
		return false
	}
	if reason, ok := s.retiredReason(tail); ok {
		s.writeError(w, errorf(http.StatusGone, "%s", reason))
		return false
	}
	coll, _, _ := strings.Cut(tail, "/")
	if name, ok := internalDomain(coll); ok {
		s.writeError(w, errorf(http.StatusNotFound, "%s is an internal-only domain with no public interface", name))
		return false
	}
	if coll != "" && !s.knownCollections[coll] {
		s.writeError(w, errorf(http.StatusNotFound, "no collection %q", coll))
		return false
	}
	return true
}
