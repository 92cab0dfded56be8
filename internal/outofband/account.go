package outofband

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Account is one account of a server of the interface, reached directly.
type Account struct {
	// Base is the account's root: the server's URL and /rest/<customer id>.
	Base               string
	Username, Password string
}

// URL is the account's address of path, a path below /rest/<customer id>
// with or without its leading slash.
func (a Account) URL(path string) string {
	return a.Base + "/" + strings.TrimPrefix(path, "/")
}

// Send sends one request with the account's credentials, a body of the
// given content type when body is not nil, and returns the status and the
// whole answer. An error is a request that could not be built or sent, or
// an answer that could not be read; any status is an answer.
func (a Account) Send(ctx context.Context, method, path, contentType string, body io.Reader) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, a.URL(path), body)
	if err != nil {
		return 0, nil, fmt.Errorf("building %s %s: %w", method, path, err)
	}
	req.SetBasicAuth(a.Username, a.Password)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }() // read to the end below: Close has nothing to report
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, raw, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	return resp.StatusCode, raw, nil
}

// JSON is Send with body, when not nil, encoded as JSON.
func (a Account) JSON(ctx context.Context, method, path string, body any) (int, []byte, error) {
	if body == nil {
		return a.Send(ctx, method, path, "", nil)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, fmt.Errorf("encoding the body of %s %s: %w", method, path, err)
	}
	return a.Send(ctx, method, path, "application/json", bytes.NewReader(b))
}
