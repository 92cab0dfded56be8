package contactsync

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The account's suppression list: a list that holds every recipient who
// opted out, unsubscribed on the channels they opted out of, so that an
// opt-out outlives the list it was made in. The interface has no
// account-wide suppression, so the provider keeps one in an ordinary list
// the user names (suppression_list_id), and every resource that names it
// honours it and records into it.

// The attributes whose values identify a recipient across lists, besides
// originalId: the account's standard e-mail and mobile attributes.
const (
	EmailAttribute  = "email"
	MobileAttribute = "mobile"
)

// Channels are the channels an opt-out covers.
type Channels struct {
	Email, Mobile bool
}

// Any reports whether c covers a channel.
func (c Channels) Any() bool { return c.Email || c.Mobile }

// Without is c less the channels of o.
func (c Channels) Without(o Channels) Channels {
	return Channels{Email: c.Email && !o.Email, Mobile: c.Mobile && !o.Mobile}
}

// Intersect is the channels of both c and o.
func (c Channels) Intersect(o Channels) Channels {
	return Channels{Email: c.Email && o.Email, Mobile: c.Mobile && o.Mobile}
}

// Union is the channels of c or o.
func (c Channels) Union(o Channels) Channels {
	return Channels{Email: c.Email || o.Email, Mobile: c.Mobile || o.Mobile}
}

// String names the channels for a message: "e-mail", "mobile",
// "e-mail and mobile", or "none".
func (c Channels) String() string {
	switch {
	case c.Email && c.Mobile:
		return "e-mail and mobile"
	case c.Email:
		return "e-mail"
	case c.Mobile:
		return "mobile"
	}
	return "none"
}

// UnsubscribedChannels are the channels a contact's statuses show
// UNSUBSCRIBED.
func UnsubscribedChannels(email, mobile string) Channels {
	return Channels{Email: email == client.StatusUnsubscribed, Mobile: mobile == client.StatusUnsubscribed}
}

// status is the status write that unsubscribes c's channels.
func (c Channels) status() client.SubscriptionStatus {
	var st client.SubscriptionStatus
	if c.Email {
		st.Status = client.StatusUnsubscribed
	}
	if c.Mobile {
		st.MobileStatus = client.StatusUnsubscribed
	}
	return st
}

// OptOut is one recipient's opt-out to record: its originalId, the values
// of its e-mail and mobile attributes ("" none), and the channels.
type OptOut struct {
	OriginalID    string
	Email, Mobile string
	Channels      Channels
}

// NormalizeEmail is an e-mail address as the suppression list compares
// it: without surrounding spaces, in lower case.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Bits of a Suppression's index entries.
const (
	supHeld   uint8 = 1 << iota // the suppression list has this originalId
	supEmail                    // unsubscribed on e-mail
	supMobile                   // unsubscribed on mobile
)

func bitsOf(c Channels) uint8 {
	var b uint8
	if c.Email {
		b |= supEmail
	}
	if c.Mobile {
		b |= supMobile
	}
	return b
}

func channelsOf(b uint8) Channels {
	return Channels{Email: b&supEmail != 0, Mobile: b&supMobile != 0}
}

// Suppression is one suppression list as this provider process sees it:
// listed once, on first use, indexed by originalId (one id space across
// the account's lists, as CRM exports use it) and by e-mail address
// (NormalizeEmail), and kept current with the process's own writes. An
// index entry is a byte, so a suppression list of a million recipients
// costs its ids and addresses and little more.
type Suppression struct {
	run    *Run
	listID string

	mu     sync.Mutex
	loaded bool
	ids    map[string]uint8 // originalId -> supHeld | channels unsubscribed
	emails map[string]uint8 // NormalizeEmail(address) -> channels unsubscribed
}

// Suppression is the suppression list listID of this run: one per id, so
// every resource of the run shares its one listing.
func (r *Run) Suppression(listID string) *Suppression {
	var s *Suppression
	r.suppressions.Update(listID, func(held *Suppression, _ bool) (*Suppression, bool) {
		if held == nil {
			held = &Suppression{run: r, listID: listID}
		}
		s = held
		return held, true
	})
	return s
}

// ListID is the id of the suppression list.
func (s *Suppression) ListID() string { return s.listID }

// Load lists the suppression list unless this run has already. A failed
// listing is not kept: the next use lists again.
func (s *Suppression) Load(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loadLocked(ctx)
}

func (s *Suppression) loadLocked(ctx context.Context) error {
	if s.loaded {
		return nil
	}
	ids, emails := map[string]uint8{}, map[string]uint8{}
	err := s.run.client.Contacts.Stream(ctx, s.listID, client.ListingOptions{}, func(chunk []client.ListedContact) error {
		for _, c := range chunk {
			ch := bitsOf(UnsubscribedChannels(c.Status, c.MobileStatus))
			ids[c.OriginalID] |= supHeld | ch
			if ch == 0 {
				continue // subscribed on both: its address suppresses nothing
			}
			email, _, err := s.run.RecipientOf(ctx, c.Properties)
			if err != nil {
				return err
			}
			if e := NormalizeEmail(email); e != "" {
				emails[e] |= ch
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing the suppression list %s: %w", s.listID, err)
	}
	s.ids, s.emails, s.loaded = ids, emails, true
	return nil
}

// Len is the number of contacts the suppression list holds (listing it
// first if this run has not).
func (s *Suppression) Len(ctx context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadLocked(ctx); err != nil {
		return 0, err
	}
	return len(s.ids), nil
}

// Suppressed are the channels the suppression list holds a recipient
// unsubscribed on: by its originalId, or by its e-mail address (compared
// ignoring case and surrounding spaces; "" matches nothing).
func (s *Suppression) Suppressed(ctx context.Context, originalID, email string) (Channels, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadLocked(ctx); err != nil {
		return Channels{}, err
	}
	return s.suppressedLocked(originalID, email), nil
}

func (s *Suppression) suppressedLocked(originalID, email string) Channels {
	b := s.ids[originalID] &^ supHeld
	if e := NormalizeEmail(email); e != "" {
		b |= s.emails[e]
	}
	return channelsOf(b)
}

// Missing are the channels of o the suppression list does not hold yet:
// what Record would write for it.
func (s *Suppression) Missing(ctx context.Context, o OptOut) (Channels, error) {
	got, err := s.Suppressed(ctx, o.OriginalID, o.Email)
	if err != nil {
		return Channels{}, err
	}
	return o.Channels.Without(got), nil
}

// Record copies opt-outs into the suppression list: each channel of an
// opt-out that the list does not hold yet (by originalId or e-mail) is
// written, a recipient the list lacks by creating it with its originalId,
// its e-mail and mobile values and UNSUBSCRIBED on those channels, one the
// list has by setting those channels' status. Writes run side by side
// (WriteConcurrency at most). It returns how many recipients it wrote;
// the error names those it could not write (the others were written, and
// the index holds them).
func (s *Suppression) Record(ctx context.Context, outs []OptOut) (int, error) {
	s.mu.Lock()
	if err := s.loadLocked(ctx); err != nil {
		s.mu.Unlock()
		return 0, err
	}
	work := s.pendingLocked(outs)
	s.mu.Unlock()
	if len(work) == 0 {
		return 0, nil
	}

	var mobileAttr bool
	if _, ok, err := s.run.Attributes.AttributeOf(ctx, MobileAttribute); err != nil {
		return 0, fmt.Errorf("recording opt-outs in the suppression list %s: %w", s.listID, err)
	} else {
		mobileAttr = ok
	}
	var (
		mu     sync.Mutex
		failed []error
		wrote  int
		wg     sync.WaitGroup
		queue  = make(chan pendingOptOut)
	)
	for range min(WriteConcurrency, len(work)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range queue {
				err := s.writeOne(ctx, p, mobileAttr)
				mu.Lock()
				if err != nil {
					failed = append(failed, err)
				} else {
					wrote++
				}
				mu.Unlock()
				if err == nil {
					s.noteWritten(p)
				}
			}
		}()
	}
	for _, p := range work {
		s.run.Listings.Wrote(s.listID, p.OriginalID)
		queue <- p
	}
	close(queue)
	wg.Wait()
	if len(failed) > 0 {
		return wrote, fmt.Errorf("recording %d of %d opt-outs in the suppression list %s failed (the others were recorded): %w", len(failed), len(work), s.listID, errors.Join(firstErrors(failed, 3)...))
	}
	s.run.log.Info(ctx, "recorded opt-outs in the suppression list", map[string]any{"list_id": s.listID, "count": wrote})
	return wrote, nil
}

// pendingOptOut is one recipient Record writes: the channels missing, and
// whether the suppression list has its originalId already.
type pendingOptOut struct {
	OptOut
	held bool
}

// pendingLocked merges outs by originalId and keeps what the list lacks.
func (s *Suppression) pendingLocked(outs []OptOut) []pendingOptOut {
	at := map[string]int{}
	var work []pendingOptOut
	for _, o := range outs {
		if o.OriginalID == "" || !o.Channels.Any() {
			continue
		}
		missing := o.Channels.Without(s.suppressedLocked(o.OriginalID, o.Email))
		if i, ok := at[o.OriginalID]; ok {
			w := &work[i]
			w.Channels = w.Channels.Union(missing)
			if w.Email == "" {
				w.Email = o.Email
			}
			if w.Mobile == "" {
				w.Mobile = o.Mobile
			}
			continue
		}
		at[o.OriginalID] = len(work)
		o.Channels = missing
		work = append(work, pendingOptOut{OptOut: o, held: s.ids[o.OriginalID]&supHeld != 0})
	}
	kept := work[:0]
	for _, w := range work {
		if w.Channels.Any() {
			kept = append(kept, w)
		}
	}
	return kept
}

// writeOne writes one recipient into the suppression list. A create whose
// answer does not show the channels unsubscribed (a service that ignores
// a status at create: the interface is silent on it) is followed by a
// status write.
func (s *Suppression) writeOne(ctx context.Context, p pendingOptOut, mobileAttr bool) error {
	c := s.run.client
	st := p.Channels.status()
	if !p.held {
		props := map[string]string{}
		if p.Email != "" {
			props[EmailAttribute] = p.Email
		}
		if p.Mobile != "" && mobileAttr {
			props[MobileAttribute] = p.Mobile
		}
		made, err := c.Contacts.CreateOnce(ctx, s.listID, client.ContactInput{
			OriginalID: p.OriginalID, Properties: props, Status: st.Status, MobileStatus: st.MobileStatus,
		})
		switch {
		case errors.Is(err, client.ErrConflict):
			// Added since the listing: set its statuses below.
		case err != nil:
			return err
		case made != nil && (!p.Channels.Email || made.Status == client.StatusUnsubscribed) &&
			(!p.Channels.Mobile || made.MobileStatus == client.StatusUnsubscribed):
			return nil
		}
	}
	_, err := c.Contacts.SetSubscriptionStatus(ctx, s.listID, p.OriginalID, st)
	if errors.Is(err, client.ErrNotFound) && p.held {
		// Gone since the listing: make it again.
		p.held = false
		return s.writeOne(ctx, p, mobileAttr)
	}
	return err
}

// noteWritten keeps the index current with a recipient Record wrote.
func (s *Suppression) noteWritten(p pendingOptOut) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := bitsOf(p.Channels)
	s.ids[p.OriginalID] |= supHeld | b
	if e := NormalizeEmail(p.Email); e != "" {
		s.emails[e] |= b
	}
}

// firstErrors is at most n of errs.
func firstErrors(errs []error, n int) []error {
	if len(errs) > n {
		return errs[:n]
	}
	return errs
}

// RecipientOf is the e-mail and mobile values of a contact's properties,
// keyed by attribute name or id as the service or a configuration has them.
func (r *Run) RecipientOf(ctx context.Context, props map[string]string) (email, mobile string, err error) {
	if len(props) == 0 {
		return "", "", nil
	}
	email, okE := props[EmailAttribute]
	mobile, okM := props[MobileAttribute]
	if okE && okM {
		return email, mobile, nil
	}
	for k, v := range props {
		if !IsAttributeID(k) {
			continue
		}
		name, ok, err := r.Attributes.NameOf(ctx, k)
		if err != nil {
			return "", "", err
		}
		switch {
		case !ok:
		case name == EmailAttribute && !okE:
			email = v
		case name == MobileAttribute && !okM:
			mobile = v
		}
	}
	return email, mobile, nil
}

// OptOutsOf reads every contact of a list with one listing and returns
// those unsubscribed on some channel, as opt-outs to record: what a list
// about to be deleted holds (it cannot tell who made them, so all count).
// Only those contacts' values are kept.
func (r *Run) OptOutsOf(ctx context.Context, listID string) ([]OptOut, error) {
	var out []OptOut
	err := r.client.Contacts.Stream(ctx, listID, client.ListingOptions{}, func(chunk []client.ListedContact) error {
		for _, c := range chunk {
			ch := UnsubscribedChannels(c.Status, c.MobileStatus)
			if !ch.Any() {
				continue
			}
			email, mobile, err := r.RecipientOf(ctx, c.Properties)
			if err != nil {
				return err
			}
			out = append(out, OptOut{OriginalID: c.OriginalID, Email: email, Mobile: mobile, Channels: ch})
		}
		return nil
	})
	return out, err
}
