package client

import (
	"context"
	"errors"
	"fmt"
)

// PathSafeID reports whether an originalId can be carried as one segment of
// a URL path (GET, PUT and the subscription-status call of a contact).
// url.PathEscape escapes everything but the unreserved characters, so
// after escaping only the dot segments "." and ".." are left that a server
// resolves as path navigation (RFC 3986 section 5.2.4; Go's ServeMux cleans
// them and redirects) instead of taking as the contact's name: no encoding
// helps, since "%2E" is the same as "." once normalised (RFC 3986 section
// 6.2.2.2) and servers decode it. An empty id is no segment at all: the
// path would name the list's contacts instead.
func PathSafeID(id string) bool {
	return id != "" && id != "." && id != ".."
}

// ErrPathUnsafeID matches the error of a single-contact call refused
// because its originalId cannot be a URL path segment (PathSafeID).
var ErrPathUnsafeID = errors.New("the originalId cannot be carried in a URL path")

// PathUnsafeIDError is a single-contact call the client refused before
// sending, because the contact's originalId is no path segment a server
// would take as it is. Such a contact is read through its list's listing
// (Contacts.FindListed) and written through calls that carry the id in a
// body: the create (POST .../contacts) and ADD and UNSUBSCRIBE imports.
type PathUnsafeIDError struct {
	OriginalID string
}

func (e *PathUnsafeIDError) Error() string {
	return fmt.Sprintf("originalId %q cannot be sent as a URL path segment (a server resolves it as a dot segment, which names another resource): the contact can be created, listed and changed by imports only", e.OriginalID)
}

// Is makes errors.Is(err, ErrPathUnsafeID) true.
func (e *PathUnsafeIDError) Is(target error) bool { return target == ErrPathUnsafeID }

// checkPathID refuses an originalId that PathSafeID refuses.
func checkPathID(originalID string) error {
	if PathSafeID(originalID) {
		return nil
	}
	return &PathUnsafeIDError{OriginalID: originalID}
}

// FindListed finds a contact in its list's listing (GET
// .../contacts, which carries the originalId in the answer's body), for a
// contact whose originalId a path cannot carry. It pages through the list
// until it finds the contact; the error matches ErrNotFound when the list
// has no such contact (or the list is gone).
func (s *ContactService) FindListed(ctx context.Context, listID, originalID string) (*Contact, error) {
	cur := s.Cursor(listID, MaxPageSize)
	for {
		page, ok, err := cur.Next(ctx)
		if err != nil {
			return nil, fmt.Errorf("looking for contact %q in the listing of list %s: %w", originalID, listID, err)
		}
		if !ok {
			return nil, fmt.Errorf("looking for contact %q in the listing of list %s: %w", originalID, listID, ErrNotFound)
		}
		for i := range page {
			if page[i].OriginalID == originalID {
				return &page[i], nil
			}
		}
	}
}

// Lookup reads a contact by its originalId: with a GET of its own
// where a path can carry the id, else from its list's listing
// (Contacts.FindListed). The error matches ErrNotFound when the list has no
// such contact.
func (s *ContactService) Lookup(ctx context.Context, listID, originalID string) (*Contact, error) {
	if PathSafeID(originalID) {
		return s.Get(ctx, listID, originalID)
	}
	return s.FindListed(ctx, listID, originalID)
}
