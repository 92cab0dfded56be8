package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// UncertainError is a write whose outcome is unknown: the request may have
// reached the service and been carried out, but no answer came back (the
// connection dropped after sending, or a gateway answered 5xx for a backend
// that may have acted). Repeating it blindly could create a thing twice.
type UncertainError struct {
	Method     string
	Path       string
	StatusCode int // 0 when the connection failed
	// Acted is set when the service answered success but its answer named
	// nothing it made: the write was carried out, so it must never be sent
	// again, only read back.
	Acted bool
	Err   error
}

func (e *UncertainError) Error() string {
	if e.Acted {
		return fmt.Sprintf("%s %s: the service carried it out (status %d) but did not say what it made: %v", e.Method, e.Path, e.StatusCode, e.Err)
	}
	return fmt.Sprintf("%s %s: the outcome is unknown (the service may have carried it out): %v", e.Method, e.Path, e.Err)
}

// IsActed reports whether err is a write the service carried out (it
// answered with success) without saying what it made, and that no read-back
// could find: it must not be sent again.
func IsActed(err error) bool { return acted(err) }

// acted reports whether err is an *UncertainError of a write known to have
// been carried out.
func acted(err error) bool {
	var u *UncertainError
	return errors.As(err, &u) && u.Acted
}

func (e *UncertainError) Unwrap() error { return e.Err }

// IsUncertain reports whether err is an *UncertainError.
func IsUncertain(err error) bool {
	var u *UncertainError
	return errors.As(err, &u)
}

// mayHaveActed reports whether a status answered to a POST leaves open that
// the service acted: server and gateway failures. 501 means the method is
// not implemented at all, and 4xx answers are the service's own refusal.
func mayHaveActed(status int) bool {
	return status >= 500 && status != http.StatusNotImplemented
}

// AdoptWindow is how far before an attempt an object found by recovery may
// have been created: the service stamps dateCreated in whole seconds and its
// clock may differ a little from ours.
const AdoptWindow = 5 * time.Second

// CreateOrAdopt runs create and, when its outcome is uncertain, reads back
// before trying again: find looks for the object the attempt would have made
// (created at or after since). A found object is adopted, so nothing is
// created twice; when none exists the attempt provably did nothing and is
// repeated, up to the client's retry budget, unless the service said it
// acted (a success that named nothing). find returns an error when it
// cannot tell (for instance two candidates), which the caller reports with
// the objects to import. Each domain's create-once (Lists.CreateOnce in
// lists.go, Imports.CreateOnce in imports.go, ...) sits beside its other
// calls and says how it recognises what it made; this file holds only what
// they share.
func CreateOrAdopt[T any](ctx context.Context, c *Client, what string,
	create func(context.Context) (T, error),
	find func(ctx context.Context, since time.Time) (T, bool, error),
) (T, error) {
	var zero T
	for attempt := 0; ; attempt++ {
		since := time.Now().Add(-AdoptWindow)
		v, err := create(ctx)
		if err == nil || !IsUncertain(err) {
			return v, err
		}
		c.logger.Warn(ctx, "create outcome unknown; reading back before trying again", map[string]any{
			"object": what, "attempt": attempt + 1, "error": err.Error(),
		})
		// find reads through the client, whose GETs are retried themselves.
		found, ok, ferr := find(ctx, since)
		if ferr != nil {
			// Both wrapped: the outcome is still unknown (IsUncertain), and
			// the read-back's error (an *AmbiguousError, a 404) says why.
			return zero, fmt.Errorf("%s: after %w: %w", what, err, ferr)
		}
		if ok {
			c.logger.Info(ctx, "adopted the object an interrupted create made", map[string]any{"object": what})
			return found, nil
		}
		if acted(err) {
			// The service said it made something; a read-back that finds
			// nothing must not lead to a second one.
			return zero, fmt.Errorf("%s: %w; reading back found no such object, so nothing was created again: look for it in the account and import it", what, err)
		}
		if attempt >= c.cfg.MaxRetries {
			return zero, err
		}
		if werr := sleepCtx(ctx, backoff(c.cfg.RetryWaitMin, c.cfg.RetryWaitMax, attempt, nil)); werr != nil {
			return zero, werr
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// adoptOne picks the single object named name created since since; several
// candidates cannot be told apart, so the error names them for an import.
func adoptOne[T any](all []T, kind, name string, since time.Time, fields func(T) (name string, created time.Time, id string)) (*T, bool, error) {
	var match []T
	var ids []string
	for _, o := range all {
		n, created, id := fields(o)
		if n == name && createdSince(created, since) {
			match = append(match, o)
			ids = append(ids, id)
		}
	}
	switch len(match) {
	case 0:
		return nil, false, nil
	case 1:
		return &match[0], true, nil
	default:
		return nil, false, &AmbiguousError{Kind: kind, Name: name, IDs: ids}
	}
}

// AmbiguousError is a read-back after an unknown outcome that found
// several objects the attempt could have made: they cannot be told apart,
// so nothing is adopted and nothing is created again.
type AmbiguousError struct {
	Kind string   // "project", "import", "statistics export"...
	Name string   // what they share (a name, the request fields)
	IDs  []string // the candidates
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%d candidates for this %s (%s) were created just now (ids %v) and one of them is this resource's: import it with `terraform import` and delete the others", len(e.IDs), e.Kind, e.Name, e.IDs)
}

// createdSince reports whether a creation time is at or after since. Times
// are compared parsed, never as text, so any form the service sends works.
// No time (the service sent none, or none that parses) counts as recent:
// adopting is safer than creating a duplicate.
func createdSince(t, since time.Time) bool {
	if t.IsZero() {
		return true
	}
	return !t.Before(since.Truncate(time.Second))
}
