package contactsync

import (
	"context"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// How rms_list_contacts honours and records into the suppression list
// (suppression.go): Compare asks SuppressedFunc which channels a contact
// is suppressed on, and OptOutsToRecord finds the opt-outs the list holds
// that the suppression list does not.

// SuppressedFunc answers, for contact i of a book, the channels the
// suppression list holds it unsubscribed on.
type SuppressedFunc func(b *Book, i int) Channels

// Lookup is the SuppressedFunc of this suppression list for books of this
// run, listing the suppression list first if the run has not. A contact's
// e-mail address is its book's value of the account's e-mail attribute.
func (s *Suppression) Lookup(ctx context.Context) (SuppressedFunc, error) {
	if err := s.Load(ctx); err != nil {
		return nil, err
	}
	var mu sync.Mutex
	cols := map[*Book]recipientColumns{}
	s.mu.Lock()
	byAddress := len(s.emails) > 0
	s.mu.Unlock()
	return func(b *Book, i int) Channels {
		if !byAddress {
			// No address to match: an id lookup, without reading the
			// contact's values (a million-contact file plans in seconds).
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.suppressedLocked(b.ID(i), "")
		}
		mu.Lock()
		rc, ok := cols[b]
		if !ok {
			rc = s.run.recipientColumns(ctx, b)
			cols[b] = rc
		}
		mu.Unlock()
		email, _ := rc.values(b, i)
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.suppressedLocked(b.ID(i), email)
	}, nil
}

// recipientColumns are where a book keeps the e-mail and mobile values:
// the column index of a file's book (-1 none), or, for a map input, the
// property keys (by name or id).
type recipientColumns struct {
	email, mobile       int
	emailKey, mobileKey []string
}

// recipientColumns finds the e-mail and mobile attributes among a book's
// columns, named or by id. A map input's contacts name their own keys,
// all of them considered.
func (r *Run) recipientColumns(ctx context.Context, b *Book) recipientColumns {
	rc := recipientColumns{email: -1, mobile: -1}
	names := func(key string) string {
		name, ok, err := r.Attributes.NameOf(ctx, key)
		if err != nil || !ok {
			return key
		}
		return name
	}
	if b.file {
		for j, c := range b.Columns {
			switch names(c) {
			case EmailAttribute:
				rc.email = j
			case MobileAttribute:
				rc.mobile = j
			}
		}
		return rc
	}
	seen := map[string]bool{}
	for _, w := range b.list {
		for k := range w.Props {
			if seen[k] {
				continue
			}
			seen[k] = true
			switch names(k) {
			case EmailAttribute:
				rc.emailKey = append(rc.emailKey, k)
			case MobileAttribute:
				rc.mobileKey = append(rc.mobileKey, k)
			}
		}
	}
	return rc
}

// values are contact i's e-mail and mobile values ("" none).
func (rc recipientColumns) values(b *Book, i int) (email, mobile string) {
	if !b.file {
		p := b.list[i].Props
		for _, k := range rc.emailKey {
			if v := p[k]; v != "" {
				email = v
			}
		}
		for _, k := range rc.mobileKey {
			if v := p[k]; v != "" {
				mobile = v
			}
		}
		return email, mobile
	}
	if rc.email < 0 && rc.mobile < 0 {
		return "", ""
	}
	_, p := b.field(int(b.offs[i]))
	for j := range b.Columns {
		var v string
		v, p = b.field(p)
		switch j {
		case rc.email:
			email = v
		case rc.mobile:
			mobile = v
		}
	}
	return email, mobile
}

// suppressedOf are the channels the suppression list holds contact i of
// desired on, less those an allowed re-subscription consented to
// (Options.Consented); allowed says the configuration may re-subscribe the
// contact anyway (allow_resubscribe, allow_resubscribe_ids): the channels
// the input wants SUBSCRIBED are then not suppressed for this diff.
func suppressedOf(desired *Book, i int, id string, opts Options) (sup Channels, allowed bool) {
	if opts.Suppressed == nil {
		return Channels{}, false
	}
	sup = opts.Suppressed(desired, i)
	if c, ok := opts.Consented[id]; ok {
		sup = sup.Without(Channels{Email: c[0], Mobile: c[1]})
	}
	return sup, sup.Any() && (opts.AllowResubscribe || opts.Resubscribe[id])
}

// suppressCreate makes a contact to create start UNSUBSCRIBED on the
// suppressed channels sup, and reports whether that changed what the
// input asked for. Each channel it changed has the suppression list as
// its reason (Change.Suppressed).
func suppressCreate(ch *Change, sup Channels) bool {
	if sup.Email && ch.Status.Status != client.StatusUnsubscribed {
		ch.Status.Status, ch.Suppressed.Email = client.StatusUnsubscribed, true
	}
	if sup.Mobile && ch.Status.MobileStatus != client.StatusUnsubscribed {
		ch.Status.MobileStatus, ch.Suppressed.Mobile = client.StatusUnsubscribed, true
	}
	return ch.Suppressed.Any()
}

// suppressExisting keeps a listed contact unsubscribed on the suppressed
// channels sup: no SUBSCRIBED is sent there, and a channel the service
// shows in another state (SUBSCRIBED, PENDING) is unsubscribed. A channel
// the service does not show is unsubscribed only where the change would
// have sent a status. want are the input's statuses (e-mail, mobile): a
// channel the input wants SUBSCRIBED that the service shows unsubscribed
// already stays so because of the suppression list too (its reason, ahead
// of a kept opt-out). It reports whether the suppression list decided a
// channel (Change.Suppressed).
func suppressExisting(ch *Change, sup Channels, have ServiceContact, want [2]string) bool {
	keep := func(send *string, shown, wanted string) bool {
		switch {
		case *send == client.StatusUnsubscribed:
			return false // the input's own unsubscription
		case shown == client.StatusUnsubscribed:
			if *send != "" {
				*send = "" // no re-subscription
				return true
			}
			return wanted == client.StatusSubscribed
		case shown != "" || *send != "":
			*send = client.StatusUnsubscribed
			return true
		}
		return false
	}
	if sup.Email && keep(&ch.Status.Status, have.Email, want[0]) {
		ch.Suppressed.Email = true
	}
	if sup.Mobile && keep(&ch.Status.MobileStatus, have.Mobile, want[1]) {
		ch.Suppressed.Mobile = true
	}
	return ch.Suppressed.Any()
}

// OptOutDecision is a recipient's own opt-out that a list shows: contact
// Index of the book, on Channels.
type OptOutDecision struct {
	Index    int
	Channels Channels
}

// RecipientOptOuts decides which opt-outs of the contacts desired names
// are the recipients' own: the channels the service shows UNSUBSCRIBED
// that Terraform did not make (applied is not UNSUBSCRIBED on that
// channel: a recipient's own, or one Terraform cannot tell apart, which
// counts as the recipient's). Only these enter a suppression list.
func RecipientOptOuts(desired *Book, service *ServiceList, applied AppliedStatuses) []OptOutDecision {
	var out []OptOutDecision
	for i := range desired.Len() {
		have, ok := service.lookup(desired, i)
		if !ok {
			continue
		}
		ch := UnsubscribedChannels(have.Email, have.Mobile)
		if ch.Any() && applied != nil {
			ae, am := applied(desired.ID(i))
			ch = ch.Without(Channels{Email: ae == client.StatusUnsubscribed, Mobile: am == client.StatusUnsubscribed})
		}
		if ch.Any() {
			out = append(out, OptOutDecision{Index: i, Channels: ch})
		}
	}
	return out
}

// OptOutsToRecord are the recipients' opt-outs (RecipientOptOuts) less
// what missing says the suppression list holds already.
func (r *Run) OptOutsToRecord(ctx context.Context, desired *Book, service *ServiceList, applied AppliedStatuses, missing func(OptOut) (Channels, error)) ([]OptOut, error) {
	return r.CompleteOptOuts(ctx, desired, service, RecipientOptOuts(desired, service, applied), missing)
}

// CompleteOptOuts reads what recording decided opt-outs takes: each
// contact's e-mail and mobile values (the service's where the listing
// kept them, else the book's), and the channels the suppression list does
// not hold yet (missing); an opt-out it holds on every channel is dropped.
func (r *Run) CompleteOptOuts(ctx context.Context, desired *Book, service *ServiceList, decided []OptOutDecision, missing func(OptOut) (Channels, error)) ([]OptOut, error) {
	var out []OptOut
	var rc *recipientColumns
	for _, d := range decided {
		if rc == nil {
			c := r.recipientColumns(ctx, desired)
			rc = &c
		}
		o := OptOut{OriginalID: desired.ID(d.Index), Channels: d.Channels}
		o.Email, o.Mobile = rc.values(desired, d.Index)
		if have, ok := service.lookup(desired, d.Index); ok && have.Props != nil {
			e, m, err := r.RecipientOf(ctx, have.Props)
			if err != nil {
				return nil, err
			}
			o.Email, o.Mobile = cmpOr(e, o.Email), cmpOr(m, o.Mobile)
		}
		left, err := missing(o)
		if err != nil {
			return nil, err
		}
		if left.Any() {
			o.Channels = left
			out = append(out, o)
		}
	}
	return out, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
