package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Subscription states of SubscriptionStatusDto.
const (
	StatusSubscribed   = "SUBSCRIBED"
	StatusUnsubscribed = "UNSUBSCRIBED"
)

// Contact is a recipient of a list, identified in it by OriginalID.
// Properties are keyed by attribute name or by attribute id in answers (the
// interface allows both), values as PropertyValues reads them.
type Contact struct {
	ID           ID             `json:"id,omitempty"`
	OriginalID   string         `json:"originalId"`
	Properties   PropertyValues `json:"properties"`
	Status       string         `json:"status,omitempty"`
	MobileStatus string         `json:"mobileStatus,omitempty"`
	DateCreated  Timestamp      `json:"dateCreated,omitempty"`
	DateModified Timestamp      `json:"dateModified,omitempty"`
}

// ContactInput creates a contact. Properties keys are attribute names or ids
// written as strings. An empty Status or MobileStatus is left out, so the
// service applies its initial state.
type ContactInput struct {
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties,omitempty"`
	Status       string            `json:"status,omitempty"`
	MobileStatus string            `json:"mobileStatus,omitempty"`
}

// contactUpdate is the body of PUT .../contacts/{originalId}: a nil value
// removes that attribute's value.
type contactUpdate struct {
	Properties map[string]*string `json:"properties"`
}

// SubscriptionStatus is the interface's SubscriptionStatusDto. An empty field
// is left out and keeps the contact's state.
type SubscriptionStatus struct {
	Status       string `json:"status,omitempty"`
	MobileStatus string `json:"mobileStatus,omitempty"`
}

func contactsPath(listID string) string { return Path(listsPath, listID, "contacts") }

func contactPath(listID, originalID string) string {
	return Path(listsPath, listID, "contacts", originalID)
}

// Create creates a contact in a list. A contact with the same
// originalId already in the list is an error matching ErrConflict, whether
// the service refuses the create (409, or a 400 while the contact exists)
// or carries it out as an upsert (it answers with a contact created before
// this call): a create never takes over a contact silently. An answer that
// lacks the contact is completed with a GET by originalId, or from the
// list's listing when a path cannot carry the id (PathSafeID): the create
// carries the id in its body, so it is the one call that makes such a
// contact with the statuses it asks for.
func (s *ContactService) Create(ctx context.Context, listID string, in ContactInput) (*Contact, error) {
	wrap := func(err error) error {
		return fmt.Errorf("creating contact %q in list %s: %w", in.OriginalID, listID, err)
	}
	since := time.Now().Add(-AdoptWindow)
	a, err := s.c.write(ctx, http.MethodPost, contactsPath(listID), in)
	if errors.Is(err, ErrValidation) && !errors.Is(err, ErrConflict) {
		// Some services refuse an existing id as invalid input: tell the
		// two apart by looking, so the caller can offer an import.
		if _, gerr := s.Lookup(ctx, listID, in.OriginalID); gerr == nil {
			return nil, wrap(&existingContactError{OriginalID: in.OriginalID, Err: err})
		}
	}
	if err != nil {
		return nil, wrap(err)
	}
	var out Contact
	if !PathSafeID(in.OriginalID) {
		// No GET can carry this id: an answer that lacks the contact is
		// completed from the list's listing instead.
		if !a.holds() || a.decode(&out) != nil {
			got, err := s.FindListed(ctx, listID, in.OriginalID)
			if err != nil {
				return nil, wrap(&ReadBackError{ID: in.OriginalID, Err: err})
			}
			out = *got
		}
	} else if err := s.c.created(ctx, a, func(string) string { return contactPath(listID, in.OriginalID) }, &out, false); err != nil {
		if acted(err) {
			// The contact's key is known: read it back by that instead.
			err = s.c.doJSON(ctx, http.MethodGet, contactPath(listID, in.OriginalID), nil, nil, &out)
			if err != nil {
				err = &ReadBackError{ID: in.OriginalID, Err: err}
			}
		}
		if err != nil {
			return nil, wrap(err)
		}
	}
	if created := out.DateCreated.Time; !created.IsZero() && created.Before(since.Truncate(time.Second)) {
		return nil, wrap(&existingContactError{OriginalID: in.OriginalID, Upsert: true})
	}
	return &out, nil
}

// existingContactError is a create of an originalId the list already had.
type existingContactError struct {
	OriginalID string
	Upsert     bool  // the service merged the create into the contact
	Err        error // the service's refusal, when it refused
}

func (e *existingContactError) Error() string {
	if e.Upsert {
		return fmt.Sprintf("contact %q already existed: the service answered the create with that contact (created before this call), so it may have merged the properties sent into it", e.OriginalID)
	}
	return fmt.Sprintf("contact %q already exists in the list (the service refused the create: %v)", e.OriginalID, e.Err)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *existingContactError) Is(target error) bool { return target == ErrConflict }

func (e *existingContactError) Unwrap() error { return e.Err }

// Get reads a contact; the error matches ErrNotFound when the list
// has no such contact (or the list is gone), and ErrPathUnsafeID, with
// nothing sent, when a path cannot carry the id (Contacts.Lookup reads any).
func (s *ContactService) Get(ctx context.Context, listID, originalID string) (*Contact, error) {
	if err := checkPathID(originalID); err != nil {
		return nil, fmt.Errorf("reading contact %q of list %s: %w", originalID, listID, err)
	}
	var out Contact
	if err := s.c.doJSON(ctx, http.MethodGet, contactPath(listID, originalID), nil, nil, &out); err != nil {
		return nil, fmt.Errorf("reading contact %q of list %s: %w", originalID, listID, err)
	}
	return &out, nil
}

// UpdateProperties merges props into a contact: each key replaces that
// attribute's value, a nil value removes it, attributes left out keep theirs.
// An id a path cannot carry is refused before sending (ErrPathUnsafeID).
func (s *ContactService) UpdateProperties(ctx context.Context, listID, originalID string, props map[string]*string) (*Contact, error) {
	if err := checkPathID(originalID); err != nil {
		return nil, fmt.Errorf("updating contact %q of list %s: %w", originalID, listID, err)
	}
	if props == nil {
		props = map[string]*string{}
	}
	var out Contact
	a, err := s.c.write(ctx, http.MethodPut, contactPath(listID, originalID), contactUpdate{Properties: props})
	if err == nil {
		err = s.c.updated(ctx, a, contactPath(listID, originalID), &out)
	}
	if err != nil {
		return nil, fmt.Errorf("updating contact %q of list %s: %w", originalID, listID, err)
	}
	return &out, nil
}

// SetSubscriptionStatus changes the e-mail and/or mobile subscription status
// of a contact. It returns the contact as the answer holds it, or nil when
// the service answers without the contact (an empty body or the status
// alone); callers then read the contact. An id a path cannot carry is
// refused before sending (ErrPathUnsafeID): an UNSUBSCRIBE import is the
// only way to unsubscribe such a contact (from e-mail only).
func (s *ContactService) SetSubscriptionStatus(ctx context.Context, listID, originalID string, st SubscriptionStatus) (*Contact, error) {
	if err := checkPathID(originalID); err != nil {
		return nil, fmt.Errorf("setting the subscription status of contact %q of list %s: %w", originalID, listID, err)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("encoding subscription status: %w", err)
	}
	resp, err := s.c.send(ctx, request{
		method: http.MethodPut, path: contactPath(listID, originalID) + "/subscriptionstatus",
		body: bytes.NewReader(b), contentType: "application/json; charset=utf-8",
	})
	if err != nil {
		return nil, fmt.Errorf("setting the subscription status of contact %q of list %s: %w", originalID, listID, err)
	}
	defer func() { _ = resp.Body.Close() }() // read (or abandoned) before: Close has nothing to report
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONResponse))
	if err != nil {
		return nil, fmt.Errorf("setting the subscription status of contact %q of list %s: reading the answer: %w", originalID, listID, err)
	}
	var out Contact
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &out) != nil || out.OriginalID == "" {
		return nil, nil
	}
	return &out, nil
}

// EachPage pages through the contacts of a list and calls fn with
// each page, so that a list of any size is never held whole. It stops at the
// first short page. pageSize <= 0 means DefaultPageSize.
func (s *ContactService) EachPage(ctx context.Context, listID string, pageSize int, fn func([]Contact) error) error {
	if err := EachPage(ctx, s.c, contactsPath(listID), nil, pageSize, fn); err != nil {
		return fmt.Errorf("reading the contacts of list %s: %w", listID, err)
	}
	return nil
}

// Cursor reads the contacts of a list a page at a time, in order of
// creation, as the caller asks for them; the paging rules are EachPage's.
// An error matches ErrNotFound when the list is gone.
func (s *ContactService) Cursor(listID string, pageSize int) *Cursor[Contact] {
	return NewCursor[Contact](s.c, contactsPath(listID), nil, pageSize)
}

// PropertyValues are a contact's properties as an answer holds them, keyed
// by attribute name or id. The interface says values are strings; a
// number or a boolean is kept as its JSON text, and a null (a value the
// contact does not have) is left out, so that a service that writes them
// otherwise is still read.
type PropertyValues map[string]string

// UnmarshalJSON reads an object of strings, numbers, booleans and nulls.
// What services send (plain keys, scalar values) is read in one pass
// (scanProperties); anything else, an escape in a key or a nested value
// say, through encoding/json, which keeps a nested value as its JSON text
// too.
func (p *PropertyValues) UnmarshalJSON(b []byte) error {
	if v, next, ok := scanProperties(b, skipSpace(b, 0), nil); ok && wholeValue(b, next) {
		*p = v
		return nil
	}
	return p.unmarshalAny(b)
}

// unmarshalAny is UnmarshalJSON for any JSON: every value is decoded a
// second time after the object.
func (p *PropertyValues) unmarshalAny(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("decoding contact properties: %w", err)
	}
	if raw == nil {
		*p = nil
		return nil
	}
	out := make(PropertyValues, len(raw))
	for k, v := range raw {
		v = bytes.TrimSpace(v)
		switch {
		case bytes.Equal(v, []byte("null")):
			continue
		case len(v) > 0 && v[0] == '"':
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("decoding contact property %q: %w", k, err)
			}
			out[k] = s
		default:
			out[k] = string(v)
		}
	}
	*p = out
	return nil
}

// CreateOnce creates a contact; after an unknown outcome it reads the
// contact by its originalId, the natural key, and adopts it when it was
// created since the attempt began. An older contact of that id was not made
// by this attempt: that is the conflict a plain create would have reported.
func (s *ContactService) CreateOnce(ctx context.Context, listID string, in ContactInput) (*Contact, error) {
	return CreateOrAdopt(ctx, s.c, fmt.Sprintf("contact %q in list %s", in.OriginalID, listID),
		func(ctx context.Context) (*Contact, error) { return s.Create(ctx, listID, in) },
		func(ctx context.Context, since time.Time) (*Contact, bool, error) {
			got, err := s.Lookup(ctx, listID, in.OriginalID)
			if errors.Is(err, ErrNotFound) {
				return nil, false, nil
			}
			if err != nil {
				return nil, false, err
			}
			if !createdSince(got.DateCreated.Time, since) {
				return nil, false, fmt.Errorf("contact %q already existed in list %s before this create: %w", in.OriginalID, listID, ErrConflict)
			}
			return got, true, nil
		})
}
