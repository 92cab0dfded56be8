package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
)

// The interface does not show what a write answers. A careful service may
// answer a create with the whole entity, with only its id, or with no body
// and a Location header; an update with the entity, an empty body or 204 No
// Content; and any of 200, 201, 202 and 204. The functions here read every
// one of those: an answer that holds what the caller needs is decoded; one
// that does not is completed with a GET of the entity, which is named by
// the answer's id, its Location, or (for updates) the path written.

// writeAnswer is a successful answer to a POST or PUT.
type writeAnswer struct {
	method, path string
	status       int
	location     string
	body         []byte
	readErr      error
	parsed       bool                       // obj is set (object)
	obj          map[string]json.RawMessage // the body as an object, once parsed
	sent         map[string]json.RawMessage // the request body's keys
}

// write sends in as a JSON POST or PUT and reads the whole answer (bounded).
// A non-2xx answer is an error as from send.
func (c *Client) write(ctx context.Context, method, p string, in any) (*writeAnswer, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encoding body of %s %s: %w", method, p, err)
	}
	resp, err := c.send(ctx, request{method: method, path: p, body: bytes.NewReader(b), contentType: "application/json; charset=utf-8"})
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }() // the answer is read (answerOf); Close has nothing to add
	a := answerOf(resp)
	if a.readErr != nil {
		// The service acted (2xx) but the body broke off: what the answer
		// lacks is read back like any missing value.
		c.logger.Warn(ctx, "the answer to a write broke off; reading back instead", map[string]any{"method": method, "path": a.path, "error": a.readErr.Error()})
	}
	_ = json.Unmarshal(b, &a.sent) // not an object: nothing to check
	return a, nil
}

// answerOf reads a successful answer whole (bounded); the caller closes
// the body. A body that breaks off counts as empty.
func answerOf(resp *http.Response) *writeAnswer {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONResponse))
	a := &writeAnswer{
		method: resp.Request.Method, path: resp.Request.URL.Path, status: resp.StatusCode,
		location: resp.Header.Get("Location"), body: raw, readErr: err,
	}
	if err != nil {
		a.body = nil
	}
	return a
}

// object is the answer as a JSON object; nil when the body is empty, is not
// JSON, or is not an object. A body labelled with another media type is
// still read when it parses as a JSON object: some gateways relabel.
func (a *writeAnswer) object() map[string]json.RawMessage {
	if a.parsed {
		return a.obj
	}
	a.parsed = true
	body := bytes.TrimSpace(a.body)
	if len(body) == 0 || body[0] != '{' {
		return nil
	}
	if json.Unmarshal(body, &a.obj) != nil {
		a.obj = nil
	}
	return a.obj
}

// holds reports whether the answer is an object that carries every key the
// request sent with a value (null removes a value, so it may be absent),
// except skip: keys the service never echoes (a write-only secret).
func (a *writeAnswer) holds(skip ...string) bool {
	obj := a.object()
	if obj == nil {
		return false
	}
	for k, v := range a.sent {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) || slices.Contains(skip, k) {
			continue
		}
		if _, ok := obj[k]; !ok {
			return false
		}
	}
	return true
}

// createdID is the id of what a create made: the answer's "id" (number or
// string), else the last segment of its Location header; "" when the
// answer names nothing.
func (a *writeAnswer) createdID() string {
	if obj := a.object(); obj != nil {
		var id ID
		if raw, ok := obj["id"]; ok && json.Unmarshal(raw, &id) == nil && id != "" {
			return id.String()
		}
	}
	return locationID(a.location)
}

// locationID is the last path segment of a Location header, unescaped.
func locationID(loc string) string {
	if loc == "" {
		return ""
	}
	u, err := url.Parse(loc)
	if err != nil {
		return ""
	}
	seg := path.Base(strings.TrimRight(u.EscapedPath(), "/"))
	if seg == "." || seg == "/" {
		return ""
	}
	id, err := url.PathUnescape(seg)
	if err != nil {
		return ""
	}
	return id
}

// decode decodes the answer into out.
func (a *writeAnswer) decode(out any) error {
	dec := json.NewDecoder(bytes.NewReader(a.body))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", a.method, a.path, err)
	}
	return nil
}

// errNamedNothing is a create answered with success that neither holds an
// id nor a Location.
var errNamedNothing = errors.New("the service answered success but named nothing it made (no id in the body and no Location header)")

// ReadBackError is a write the service carried out (it answered 2xx) whose
// result could not be read: neither the answer nor a GET of the object
// could be decoded, or the GET failed. ID names what the write made, so a
// caller records it rather than leave it behind.
type ReadBackError struct {
	ID  string
	Err error
}

func (e *ReadBackError) Error() string {
	return fmt.Sprintf("the service made or changed object %s but its answer could not be read: %v", e.ID, e.Err)
}

func (e *ReadBackError) Unwrap() error { return e.Err }

// MadeID returns the id of the object a failed create made after all, when
// err says the service made one (a *ReadBackError).
func MadeID(err error) (string, bool) {
	var rb *ReadBackError
	if errors.As(err, &rb) && rb.ID != "" {
		return rb.ID, true
	}
	return "", false
}

// created settles a create's answer into out: decoded when it holds what was
// sent (and, when keyed is set, an "id": entities are read and written by
// it), else read back with a GET of the entity the answer names (by the
// path readPath gives for the id). An answer that names nothing is an
// *UncertainError that says the service acted, so CreateOrAdopt reads back
// by the request instead of repeating it.
func (c *Client) created(ctx context.Context, a *writeAnswer, readPath func(id string) string, out any, keyed bool, skip ...string) error {
	id := a.createdID()
	if keyed && id == "" {
		return a.namedNothing()
	}
	if out == nil {
		return nil
	}
	// An entity is complete only with an id of its own: {"id":null} (or
	// "") decoded as is would hand the caller an empty id while the
	// Location names the real one, and what the create made would be
	// lost.
	if a.holds(skip...) && (!keyed || idIn(a.object(), "id") != "") && a.decode(out) == nil {
		return nil
	}
	if id == "" {
		return a.namedNothing()
	}
	c.logger.Debug(ctx, "the create answer lacks the entity; reading it back", map[string]any{"path": a.path, "id": id, "status": a.status})
	if err := c.doJSON(ctx, http.MethodGet, readPath(id), nil, nil, out); err != nil {
		return &ReadBackError{ID: id, Err: err}
	}
	return nil
}

// updated settles an update's answer into out: decoded when it holds what
// was sent, else read back with a GET of readPath.
func (c *Client) updated(ctx context.Context, a *writeAnswer, readPath string, out any, skip ...string) error {
	if out == nil || (a.holds(skip...) && a.decode(out) == nil) {
		return nil
	}
	c.logger.Debug(ctx, "the update answer lacks the entity; reading it back", map[string]any{"path": a.path, "status": a.status})
	return c.doJSON(ctx, http.MethodGet, readPath, nil, nil, out)
}

// isJSONMediaType reports whether a Content-Type names JSON (any charset,
// any case); an absent or unparsable one counts as JSON, since the body
// decides then.
func isJSONMediaType(contentType string) bool {
	if contentType == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return true
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// startedID is the id a call that starts something answers under key
// ("id" of an import, "batchId" of a batch), as a number or a string, else
// the last segment of the Location header; "" when the answer names
// nothing.
func (a *writeAnswer) startedID(key string) string {
	if id := idIn(a.object(), key); id != "" {
		return id
	}
	return locationID(a.location)
}

// idIn is the id obj holds under key, a number or a string; "" when it
// holds none (absent, null, "", or another JSON type).
func idIn(obj map[string]json.RawMessage, key string) string {
	var id ID
	if raw, ok := obj[key]; ok && json.Unmarshal(raw, &id) == nil {
		return id.String()
	}
	return ""
}

// namedNothing is the error of a start whose success answer named nothing:
// the service acted, so the caller reads back rather than repeat it.
func (a *writeAnswer) namedNothing() error {
	return &UncertainError{Method: a.method, Path: a.path, StatusCode: a.status, Acted: true, Err: errNamedNothing}
}
