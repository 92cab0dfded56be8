package client

import "net/http"

// Authenticator presents credentials on a request. The interface leaves the
// scheme open; HTTP Basic is what we use today, and a token scheme can be
// added as another implementation without touching the rest of the client.
type Authenticator interface {
	Authenticate(req *http.Request) error
}

// BasicAuth sends the account user's name and password as HTTP Basic
// authentication.
type BasicAuth struct {
	Username string
	Password string
}

// Authenticate sets the Authorization header.
func (b BasicAuth) Authenticate(req *http.Request) error {
	req.SetBasicAuth(b.Username, b.Password)
	return nil
}
