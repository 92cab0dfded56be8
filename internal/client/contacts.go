package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// Subscription states of SubscriptionStatusDto.
const (
	StatusSubscribed   = "SUBSCRIBED"
	StatusUnsubscribed = "UNSUBSCRIBED"
)

// Contact is a recipient of a list, identified in it by OriginalID.
// Properties are keyed by attribute name in answers.
type Contact struct {
	ID           ID                `json:"id,omitempty"`
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties"`
	Status       string            `json:"status,omitempty"`
	MobileStatus string            `json:"mobileStatus,omitempty"`
	DateCreated  string            `json:"dateCreated,omitempty"`
	DateModified string            `json:"dateModified,omitempty"`
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

// CreateContact creates a contact in a list. A contact with the same
// originalId already in the list is an error matching ErrConflict.
func (c *Client) CreateContact(ctx context.Context, listID string, in ContactInput) (*Contact, error) {
	var out Contact
	if err := c.doJSON(ctx, http.MethodPost, contactsPath(listID), nil, in, &out); err != nil {
		return nil, fmt.Errorf("creating contact %q in list %s: %w", in.OriginalID, listID, err)
	}
	return &out, nil
}

// GetContact reads a contact; the error matches ErrNotFound when the list
// has no such contact (or the list is gone).
func (c *Client) GetContact(ctx context.Context, listID, originalID string) (*Contact, error) {
	var out Contact
	if err := c.doJSON(ctx, http.MethodGet, contactPath(listID, originalID), nil, nil, &out); err != nil {
		return nil, fmt.Errorf("reading contact %q of list %s: %w", originalID, listID, err)
	}
	return &out, nil
}

// UpdateContactProperties merges props into a contact: each key replaces that
// attribute's value, a nil value removes it, attributes left out keep theirs.
func (c *Client) UpdateContactProperties(ctx context.Context, listID, originalID string, props map[string]*string) (*Contact, error) {
	if props == nil {
		props = map[string]*string{}
	}
	var out Contact
	if err := c.doJSON(ctx, http.MethodPut, contactPath(listID, originalID), nil, contactUpdate{Properties: props}, &out); err != nil {
		return nil, fmt.Errorf("updating contact %q of list %s: %w", originalID, listID, err)
	}
	return &out, nil
}

// SetSubscriptionStatus changes the e-mail and/or mobile subscription status
// of a contact. It returns the contact as the answer holds it, or nil when
// the service answers without the contact (an empty body or the status
// alone); callers then read the contact.
func (c *Client) SetSubscriptionStatus(ctx context.Context, listID, originalID string, st SubscriptionStatus) (*Contact, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("encoding subscription status: %w", err)
	}
	resp, err := c.send(ctx, request{
		method: http.MethodPut, path: contactPath(listID, originalID) + "/subscriptionstatus",
		body: bytes.NewReader(b), contentType: "application/json; charset=utf-8",
	})
	if err != nil {
		return nil, fmt.Errorf("setting the subscription status of contact %q of list %s: %w", originalID, listID, err)
	}
	defer resp.Body.Close()
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

// EachContactPage pages through the contacts of a list and calls fn with
// each page, so that a list of any size is never held whole. It stops at the
// first short page. pageSize <= 0 means DefaultPageSize.
func (c *Client) EachContactPage(ctx context.Context, listID string, pageSize int, fn func([]Contact) error) error {
	if err := EachPage(ctx, c, contactsPath(listID), nil, pageSize, fn); err != nil {
		return fmt.Errorf("reading the contacts of list %s: %w", listID, err)
	}
	return nil
}

// ContactsPage is one page of a list's contacts. Total is the number of
// contacts in the whole list as the X-Total-Count header gives it, or -1
// when the answer has no such header.
type ContactsPage struct {
	Contacts []Contact
	Total    int
}

// ListContactsPage reads one page (zero-based) of a list's contacts, in
// order of creation. The error matches ErrNotFound when the list is gone.
func (c *Client) ListContactsPage(ctx context.Context, listID string, page, pageSize int) (ContactsPage, error) {
	q := url.Values{"page": {strconv.Itoa(page)}, "pageSize": {strconv.Itoa(pageSize)}}
	resp, err := c.send(ctx, request{method: http.MethodGet, path: contactsPath(listID), query: q})
	if err != nil {
		return ContactsPage{}, fmt.Errorf("reading the contacts of list %s (page %d): %w", listID, page, err)
	}
	defer resp.Body.Close()
	out := ContactsPage{Total: -1}
	if n, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil && n >= 0 {
		out.Total = n
	}
	if err := decodeJSON(resp, &out.Contacts); err != nil {
		return ContactsPage{}, fmt.Errorf("reading the contacts of list %s (page %d): %w", listID, page, err)
	}
	return out, nil
}
