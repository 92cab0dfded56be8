package client

import (
	"errors"
	"net/http"
)

// Authenticator presents credentials on a request. The interface leaves the
// scheme open; HTTP Basic is the default, and accounts fronted by a token
// gateway use a static bearer token instead.
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

// BearerAuth sends a static token as `Authorization: Bearer <token>`, for
// accounts behind a gateway that issues such tokens.
type BearerAuth struct {
	Token string
}

// errEmptyToken guards against a configuration bug sending "Bearer " alone,
// which a gateway would answer with a confusing 401.
var errEmptyToken = errors.New("the bearer token is empty")

// Authenticate sets the Authorization header.
func (b BearerAuth) Authenticate(req *http.Request) error {
	if b.Token == "" {
		return errEmptyToken
	}
	req.Header.Set("Authorization", "Bearer "+b.Token)
	return nil
}
