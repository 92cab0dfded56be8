package contactsync

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"iter"
	"maps"
	"slices"
	"sort"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// rms_list_contacts compares what the configuration wants (Desired,
// from the map or the file) with one listing of the list (ServiceContact)
// and turns the difference into Changes. Everything here is pure, so
// the rules (consent above all) are unit-tested without a service.

// Desired is one contact as the configuration wants it. Props are
// keyed by attribute name; an empty value means the contact must not have
// one (a removed map key, an empty cell of the file). An empty status is
// left to the service.
type Desired struct {
	ID            string
	Props         map[string]string
	Email, Mobile string
}

// ServiceContact is one contact as the listing shows it, properties by
// attribute name. An empty status is one the service does not show. A
// listing held against a file's book (ServiceList) keeps no properties
// where they are the book's own values: Props is nil and Same is true.
type ServiceContact struct {
	Props         map[string]string
	Email, Mobile string
	Same          bool
}

// SubscribedOnSomeChannel reports a contact the listing does not show as
// unsubscribed on both channels. A status the service does not show counts
// as subscribed: unsubscribing is always allowed, so when in doubt an
// exclusive apply unsubscribes.
func (s ServiceContact) SubscribedOnSomeChannel() bool {
	return s.Email != client.StatusUnsubscribed || s.Mobile != client.StatusUnsubscribed
}

// stillSubscribed is the status write that unsubscribes s on each channel
// it is not unsubscribed on yet.
func (s ServiceContact) stillSubscribed() client.SubscriptionStatus {
	var st client.SubscriptionStatus
	if s.Email != client.StatusUnsubscribed {
		st.Status = client.StatusUnsubscribed
	}
	if s.Mobile != client.StatusUnsubscribed {
		st.MobileStatus = client.StatusUnsubscribed
	}
	return st
}

// AppliedStatuses are the desired statuses Terraform last applied, per
// contact ("" unknown): the consent rule needs them to tell an opt-out the
// recipient made from a change the configuration asked for.
type AppliedStatuses func(id string) (email, mobile string)

// Change is what one contact needs. Its fields are laid out largest
// first: a first apply holds one per contact (96 bytes, not 112).
type Change struct {
	ID     string
	Set    map[string]string // attribute name -> non-empty value to write
	Remove []string          // attribute names whose value is removed
	Status client.SubscriptionStatus
	// from and row: a create from a source file's book takes its values
	// from the book (Values), instead of a map per contact; a first apply
	// of a million contacts would otherwise hold a million maps.
	from   *Book
	row    int32
	Create bool // not in the list: create it with Set and Status
	// Unsubscribe: exclusive, and the configuration does not name the
	// contact. Status then holds UNSUBSCRIBED for each channel the service
	// does not show unsubscribed already (nothing is sent for a channel in
	// the wanted status); a zero Status unsubscribes both.
	Unsubscribe bool
	// Suppressed are the channels whose status the suppression list
	// decided: Status unsubscribes them (or sends nothing where the
	// service shows them unsubscribed already) against the input. It is
	// the channel's one reason: such a channel is never counted as an
	// unsubscription the input asked for, nor as a kept opt-out.
	Suppressed Channels
}

// Values are the attribute values the change writes: Set, or for a create
// from a source file the row's non-empty values (a new map on each call).
func (c Change) Values() map[string]string {
	if c.from == nil {
		return c.Set
	}
	out := map[string]string{}
	c.eachValue(func(k, v string) { out[k] = v })
	return out
}

// eachValue calls fn with each attribute value the change writes, in no
// order for Set and in the book's column order otherwise.
func (c Change) eachValue(fn func(k, v string)) {
	if c.from == nil {
		for k, v := range c.Set {
			fn(k, v)
		}
		return
	}
	c.from.eachValue(int(c.row), func(k, v string) {
		if v != "" {
			fn(k, v)
		}
	})
}

// Equal reports whether two changes write the same, wherever their values
// are held (go-cmp uses it: a change from a book equals one with its Set).
func (c Change) Equal(o Change) bool {
	return c.ID == o.ID && c.Create == o.Create && c.Unsubscribe == o.Unsubscribe && c.Status == o.Status &&
		c.Suppressed == o.Suppressed && slices.Equal(c.Remove, o.Remove) && maps.Equal(c.Values(), o.Values())
}

// hasValues reports whether the change writes some attribute value.
func (c Change) hasValues() bool {
	if c.from == nil {
		return len(c.Set) > 0
	}
	found := false
	c.eachValue(func(string, string) { found = true })
	return found
}

// SuppressedWrite reports whether the change unsubscribes a channel
// because the suppression list holds the contact (not merely keeps one
// unsubscribed).
func (c Change) SuppressedWrite() bool {
	return (c.Suppressed.Email && c.Status.Status == client.StatusUnsubscribed) ||
		(c.Suppressed.Mobile && c.Status.MobileStatus == client.StatusUnsubscribed)
}

// Empty reports whether the change writes nothing.
func (c Change) Empty() bool {
	return !c.Create && !c.Unsubscribe && !c.hasValues() && len(c.Remove) == 0 && c.Status == (client.SubscriptionStatus{})
}

// Diff is the difference between configuration and service.
type Diff struct {
	// Changes are the changes in the order of the input, then the
	// unsubscriptions of unnamed contacts: every change, except in a first
	// apply from a source file (creates), where they are only the creates
	// a rule changed (a suppressed, kept or rejoined channel). Read them
	// through All and Len, which count the plain creates too.
	Changes []Change
	// creates is the book of a first apply from a source file into an
	// empty list (nil otherwise): each of its rows is created, and every
	// row Changes does not hold is created plainly, as the book says, a
	// Change made only as All yields it. A first apply of ten million
	// contacts then holds no Change per contact, only the book.
	creates *Book
	// plain is the number of rows created plainly.
	plain int
	// OptedOut names the contacts whose opt-out made outside Terraform is
	// honoured (the configuration wants SUBSCRIBED; nothing is sent).
	OptedOut []string
	// Kept names the contacts created UNSUBSCRIBED on a channel they had
	// opted out of in the list a replaced object managed (Options.KeptOptOuts).
	Kept []string
	// Rejoined names the contacts created UNSUBSCRIBED on a channel they
	// had opted out of before they left this list (Options.SeenOptOuts).
	Rejoined []string
	// Suppressed names the contacts kept or made UNSUBSCRIBED, against
	// the input, because the suppression list holds them (Options.Suppressed).
	Suppressed []string
	// Resubscribed are, per contact, the channels the configuration's
	// allowance (allow_resubscribe, allow_resubscribe_ids) subscribes, or
	// leaves subscribed, over an opt-out or a suppression entry: the
	// recipient agreed, and the consent record remembers it
	// (Record.Consented), whether or not anything is written.
	Resubscribed map[string]Channels
}

// noteResubscribed notes the channels of id the allowance re-subscribes.
func (d *Diff) noteResubscribed(id string, c Channels) {
	if !c.Any() {
		return
	}
	if d.Resubscribed == nil {
		d.Resubscribed = map[string]Channels{}
	}
	d.Resubscribed[id] = d.Resubscribed[id].Union(c)
}

// All yields every change of the diff in order, the plain creates of a
// first apply made from the book row by row.
func (d Diff) All() iter.Seq[Change] {
	return func(yield func(Change) bool) {
		next := 0
		if d.creates != nil {
			for i := range d.creates.Len() {
				c := plainCreate(d.creates, i)
				if next < len(d.Changes) && d.Changes[next].from == d.creates && int(d.Changes[next].row) == i {
					c = d.Changes[next]
					next++
				}
				if !yield(c) {
					return
				}
			}
		}
		for _, c := range d.Changes[next:] {
			if !yield(c) {
				return
			}
		}
	}
}

// Len is the number of changes All yields.
func (d Diff) Len() int { return d.plain + len(d.Changes) }

// List is every change as a slice: the diff's own slice, or for a first
// apply's creates a new one (only where the changes are few enough to
// write by single calls).
func (d Diff) List() []Change {
	if d.creates == nil {
		return d.Changes
	}
	return slices.Collect(d.All())
}

// Equal reports whether two diffs decide the same, however their creates
// are held (go-cmp uses it: a first apply's diff equals one that holds
// every create as a Change).
func (d Diff) Equal(o Diff) bool {
	return slices.EqualFunc(d.List(), o.List(), Change.Equal) &&
		slices.Equal(d.OptedOut, o.OptedOut) && slices.Equal(d.Kept, o.Kept) && slices.Equal(d.Rejoined, o.Rejoined) &&
		slices.Equal(d.Suppressed, o.Suppressed) && maps.Equal(d.Resubscribed, o.Resubscribed)
}

// withChanges is d with its changes replaced by changes (no plain creates
// left).
func (d Diff) withChanges(changes []Change) Diff {
	d.Changes, d.creates, d.plain = changes, nil, 0
	return d
}

// plainCreate is the create of row i of a source file's book, as the book
// says: its statuses and, through the book, its values.
func plainCreate(b *Book, i int) Change {
	e := b.Entry(i)
	return Change{ID: e.ID, Create: true, Status: client.SubscriptionStatus{Status: e.Email, MobileStatus: e.Mobile}, from: b, row: int32(i)}
}

// Counts returns how many contacts are created, changed and unsubscribed.
func (d Diff) Counts() (add, change, unsubscribe int) {
	for c := range d.All() {
		switch {
		case c.Create:
			add++
		case c.Unsubscribe:
			unsubscribe++
		default:
			change++
		}
	}
	return add, change, unsubscribe
}

// FirstIDs names at most n contacts of the changes that match keep.
func (d Diff) FirstIDs(n int, keep func(Change) bool) []string {
	var out []string
	for c := range d.All() {
		if len(out) == n {
			break
		}
		if keep(c) {
			out = append(out, c.ID)
		}
	}
	return out
}

// Options are the settings that shape a diff.
type Options struct {
	Applied          AppliedStatuses
	AllowResubscribe bool
	// Resubscribe names contacts whose opt-out may be undone, as
	// AllowResubscribe allows for all (allow_resubscribe_ids).
	Resubscribe map[string]bool
	Exclusive   bool
	// Keep names contacts exclusive never unsubscribes (keep_ids: the
	// contacts of another resource on the same list).
	Keep map[string]bool
	// Fresh names contacts this apply has just created (by an import): a
	// contact that did not exist cannot have opted out, so whatever initial
	// state the service gave it is set to the desired one.
	Fresh map[string]bool
	// Restore is, per channel, the status a contact Terraform released had
	// before ("" none): where the configuration leaves a channel to the
	// service, a released contact named again gets that status back.
	Restore func(id string) (email, mobile string)
	// KeptOptOuts are, per contact, the channels (e-mail, mobile) the
	// contact had opted out of in the list of the object this one replaces
	// (CarriedOptOuts): a contact created here starts UNSUBSCRIBED on them,
	// whatever the input says, unless AllowResubscribe. A contact the list
	// already has keeps the status this list shows (the consent rule).
	KeptOptOuts map[string][2]bool
	// SeenOptOuts are, per contact, the channels it was seen opted out of
	// in this list (Record.OptedOut): a contact created here, back after
	// it left the list, starts UNSUBSCRIBED on them, whatever the input
	// says, unless the configuration allows its re-subscription.
	SeenOptOuts map[string][2]bool
	// Suppressed is the account's suppression list (suppression_diff.go):
	// a contact it holds is never made or left SUBSCRIBED on a suppressed
	// channel, unless AllowResubscribe or Resubscribe names it, or Consented
	// holds the channel. Nil: none.
	Suppressed SuppressedFunc
	// Consented are, per contact, the channels an allowed re-subscription
	// subscribed again (Record.Consented): the recipient agreed, so the
	// suppression list's entry no longer holds them there, until the
	// service shows them unsubscribed again.
	Consented map[string][2]bool
}

// Compare compares desired with the service's contacts, which must be
// Comparable with it. Changes come in the order of desired, then the
// unsubscriptions of unnamed contacts in id order, so plans and applies are
// repeatable. A contact's properties are made into a map only where they
// differ (or it is to be created).
func Compare(desired *Book, service *ServiceList, opts Options) Diff {
	var d Diff
	switch {
	case service.Len() == 0 && desired.file:
		// A first apply from a source file creates every row: the plain
		// creates stay in the book (All makes them as it yields them).
		d.creates = desired
	case service.Len() == 0:
		// A first apply creates every contact: one allocation, not a
		// slice doubled twenty times over a million contacts.
		d.Changes = make([]Change, 0, desired.Len())
	}
	for i := range desired.Len() {
		e := desired.Entry(i)
		have, exists := service.lookup(desired, i)
		if !exists {
			w := Desired{ID: e.ID, Email: e.Email, Mobile: e.Mobile}
			ch := Change{ID: w.ID, Create: true, Status: client.SubscriptionStatus{Status: w.Email, MobileStatus: w.Mobile}}
			if desired.file {
				ch.from, ch.row = desired, int32(i)
			} else {
				w = desired.Contact(i)
				ch.Set = map[string]string{}
				for k, v := range w.Props {
					if v != "" {
						ch.Set[k] = v
					}
				}
			}
			// One reason per channel, by precedence: the suppression
			// list first, then a replaced list's opt-outs, then the
			// opt-outs seen in this list before the contact left.
			sup, allowed := suppressedOf(desired, i, w.ID, opts)
			if allowed {
				lifted := sup.Intersect(Channels{Email: ch.Status.Status == client.StatusSubscribed, Mobile: ch.Status.MobileStatus == client.StatusSubscribed})
				d.noteResubscribed(w.ID, lifted)
				sup = sup.Without(lifted)
			}
			if suppressCreate(&ch, sup) {
				d.Suppressed = append(d.Suppressed, w.ID)
			}
			if keepOptOuts(&ch, opts) {
				d.Kept = append(d.Kept, w.ID)
			}
			if keepSeenOptOuts(&ch, opts) {
				d.Rejoined = append(d.Rejoined, w.ID)
			}
			if d.creates != nil && ch.Status == (client.SubscriptionStatus{Status: e.Email, MobileStatus: e.Mobile}) && !ch.Suppressed.Any() {
				d.plain++ // as the book says: All makes it
				continue
			}
			d.Changes = append(d.Changes, ch)
			continue
		}
		ch := Change{ID: e.ID}
		if !have.Same {
			w := desired.Contact(i)
			for _, k := range SortedKeys(w.Props) {
				v, cur := w.Props[k], have.Props[k]
				switch {
				case v == "" && cur != "":
					ch.Remove = append(ch.Remove, k)
				case v != "" && v != cur:
					if ch.Set == nil {
						ch.Set = map[string]string{}
					}
					ch.Set[k] = v
				}
			}
		}
		appliedEmail, appliedMobile := "", ""
		if opts.Applied != nil {
			appliedEmail, appliedMobile = opts.Applied(e.ID)
		}
		wantEmail, wantMobile := e.Email, e.Mobile
		if opts.Restore != nil {
			re, rm := opts.Restore(e.ID)
			wantEmail, wantMobile = cmp.Or(wantEmail, re), cmp.Or(wantMobile, rm)
		}
		email := decideStatus(wantEmail, appliedEmail, have.Email, opts, e.ID)
		mobile := decideStatus(wantMobile, appliedMobile, have.Mobile, opts, e.ID)
		if email.Send {
			ch.Status.Status = wantEmail
		}
		if mobile.Send {
			ch.Status.MobileStatus = wantMobile
		}
		// Sent only because the configuration allows it: without the
		// allowance the consent rule would have kept the opt-out.
		d.noteResubscribed(e.ID, Channels{
			Email:  !opts.Fresh[e.ID] && email.Send && Decide(wantEmail, appliedEmail, have.Email, false).OptedOut,
			Mobile: !opts.Fresh[e.ID] && mobile.Send && Decide(wantMobile, appliedMobile, have.Mobile, false).OptedOut,
		})
		sup, allowed := suppressedOf(desired, i, e.ID, opts)
		if allowed {
			// The allowance lifts the entry only where the input wants
			// the channel SUBSCRIBED: that is the re-subscription the
			// recipient agreed to.
			lifted := sup.Intersect(Channels{Email: wantEmail == client.StatusSubscribed, Mobile: wantMobile == client.StatusSubscribed})
			d.noteResubscribed(e.ID, lifted)
			sup = sup.Without(lifted)
		}
		if suppressExisting(&ch, sup, have, [2]string{wantEmail, wantMobile}) {
			d.Suppressed = append(d.Suppressed, e.ID)
		}
		// An opt-out on a channel the suppression list holds is counted
		// as suppressed (the one reason of that channel), not as kept.
		if (email.OptedOut && !ch.Suppressed.Email) || (mobile.OptedOut && !ch.Suppressed.Mobile) {
			d.OptedOut = append(d.OptedOut, e.ID)
		}
		if !ch.Empty() {
			d.Changes = append(d.Changes, ch)
		}
	}
	if opts.Exclusive {
		d.Changes = append(d.Changes, ExclusiveChangesKeeping(desired, service, opts.Keep)...)
	}
	return d
}

// ExclusiveChanges are the unsubscriptions exclusive makes, in id order:
// every contact desired does not name that the service does not show
// unsubscribed on both channels. Statuses alone decide them, so a listing
// of statuses only serves (the guardrail's, where no refresh listed). The
// mobile channel of a contact whose id a path cannot carry is left out
// (ServiceContact.reachable).
func ExclusiveChanges(desired *Book, service *ServiceList) []Change {
	return ExclusiveChangesKeeping(desired, service, nil)
}

// ExclusiveChangesKeeping is ExclusiveChanges, leaving alone the contacts
// keep names (keep_ids).
func ExclusiveChangesKeeping(desired *Book, service *ServiceList, keep map[string]bool) []Change {
	var out []Change
	for _, id := range service.Unnamed(desired) {
		if s, _ := service.Get(id); s.reachable(id).SubscribedOnSomeChannel() && !keep[id] {
			out = append(out, Change{ID: id, Unsubscribe: true, Status: s.reachable(id).stillSubscribed()})
		}
	}
	return out
}

// keepOptOuts makes a contact to create start UNSUBSCRIBED on the channels
// it had opted out of in a replaced object's list, and reports whether that
// changed what the input asked for.
func keepOptOuts(ch *Change, opts Options) bool {
	o, ok := opts.KeptOptOuts[ch.ID]
	if !ok || opts.AllowResubscribe {
		return false
	}
	return unsubscribeChannels(ch, o)
}

// keepSeenOptOuts makes a contact to create start UNSUBSCRIBED on the
// channels it was seen opted out of in this list before it left, unless
// the configuration allows its re-subscription, and reports whether that
// changed what the input asked for.
func keepSeenOptOuts(ch *Change, opts Options) bool {
	o, ok := opts.SeenOptOuts[ch.ID]
	if !ok || opts.AllowResubscribe || opts.Resubscribe[ch.ID] {
		return false
	}
	return unsubscribeChannels(ch, o)
}

// unsubscribeChannels sets the channels o names UNSUBSCRIBED in a create,
// and reports whether that changed its status.
func unsubscribeChannels(ch *Change, o [2]bool) bool {
	kept := false
	if o[0] && ch.Status.Status != client.StatusUnsubscribed {
		ch.Status.Status, kept = client.StatusUnsubscribed, true
	}
	if o[1] && ch.Status.MobileStatus != client.StatusUnsubscribed {
		ch.Status.MobileStatus, kept = client.StatusUnsubscribed, true
	}
	return kept
}

// decideStatus is Decide, except for a contact this apply created.
func decideStatus(desired, applied, service string, opts Options, id string) Decision {
	if opts.Fresh[id] && desired != "" {
		return Decision{Send: service != desired}
	}
	return Decide(desired, applied, service, opts.AllowResubscribe || opts.Resubscribe[id])
}

// EffectiveStatus is the status a refresh records for a channel the
// configuration manages: what the service shows, except where it shows
// nothing (the desired one is assumed) or where the consent rule honours an
// opt-out (the desired one is kept, so that an honoured opt-out is not
// drift on every plan; the plan warns about it instead).
func EffectiveStatus(desired, applied, service string, allowResubscribe bool) string {
	if desired == "" || service == "" {
		return desired
	}
	if Decide(desired, applied, service, allowResubscribe).OptedOut {
		return desired
	}
	return service
}

// UnmanagedSubscribed counts the contacts of the list that desired does
// not name and that the service shows subscribed on some channel (a status
// it does not show is not counted: only a shown one can be drift, nor
// the mobile channel of a contact whose id a path cannot carry, which no
// apply could unsubscribe).
func UnmanagedSubscribed(service *ServiceList, desired *Book) int {
	n := 0
	for _, id := range service.Unnamed(desired) {
		s, _ := service.Get(id)
		if s = s.reachable(id); s.Email == client.StatusSubscribed || s.Mobile == client.StatusSubscribed {
			n++
		}
	}
	return n
}

// KeptSubscribed are the contacts of the list that desired does not name,
// that the service shows subscribed on some channel and that keep names:
// what keep_ids spares from exclusive, in id order.
func KeptSubscribed(service *ServiceList, desired *Book, keep map[string]bool) []string {
	var out []string
	for _, id := range service.Unnamed(desired) {
		if s, _ := service.Get(id); keep[id] && s.SubscribedOnSomeChannel() {
			out = append(out, id)
		}
	}
	return out
}

// MaxNamedInWarning bounds the ids a plan warning names.
const MaxNamedInWarning = 10

// contactsDigest is the hexadecimal SHA-256 of contacts in a canonical form:
// sorted by id, the attributes of columns in name order, then the statuses.
// The desired and the service's digest of a file input are both made here,
// from the same columns, so they are equal exactly when the list is as the
// file wants it.
type contactsDigest struct {
	h       hash.Hash
	columns []string
	buf     []byte
}

func newContactsDigest(columns []string) *contactsDigest {
	cols := slices.Clone(columns)
	sort.Strings(cols)
	return &contactsDigest{h: sha256.New(), columns: cols}
}

// add writes one contact; calls must come in id order.
func (d *contactsDigest) add(id string, props map[string]string, email, mobile string) {
	d.buf = append(d.buf[:0], id...)
	for _, c := range d.columns {
		d.buf = append(d.buf, 0)
		d.buf = append(d.buf, props[c]...)
	}
	d.end(email, mobile)
}

// addBook writes contact i of a file's book with these statuses: the line
// add would write for its values, read from the arena.
func (d *contactsDigest) addBook(b *Book, i int, email, mobile string) {
	id, p := b.field(int(b.offs[i]))
	d.buf = append(d.buf[:0], id...)
	for range b.Columns {
		var v string
		v, p = b.field(p)
		d.buf = append(d.buf, 0)
		d.buf = append(d.buf, v...)
	}
	d.end(email, mobile)
}

// end finishes the line of a contact with its statuses, and hashes it.
func (d *contactsDigest) end(email, mobile string) {
	d.buf = append(d.buf, 0)
	d.buf = append(d.buf, email...)
	d.buf = append(d.buf, 0)
	d.buf = append(d.buf, mobile...)
	d.buf = append(d.buf, '\n')
	_, _ = d.h.Write(d.buf) // a hash never fails to write
}

// absent writes a contact the list does not have.
func (d *contactsDigest) absent(id string) {
	_, _ = d.h.Write([]byte(id + "\x00\x01absent\n"))
}

func (d *contactsDigest) sum() string { return hex.EncodeToString(d.h.Sum(nil)) }

// DesiredDigest is the digest of what the input wants. A book is never
// changed once made, so its digest is computed once.
func DesiredDigest(desired *Book) string {
	desired.digestOnce.Do(func() { desired.digest = desiredDigest(desired) })
	return desired.digest
}

func desiredDigest(desired *Book) string {
	d := newContactsDigest(desired.Columns)
	for i := range desired.Len() {
		if desired.file {
			e := desired.Entry(i)
			d.addBook(desired, i, e.Email, e.Mobile)
			continue
		}
		w := desired.list[i]
		d.add(w.ID, w.Props, w.Email, w.Mobile)
	}
	return d.sum()
}

// ServiceDigest is the digest of what the service holds for the desired
// contacts, in DesiredDigest's form, statuses through EffectiveStatus;
// service must be Comparable with desired. A contact whose values are the
// book's own writes the book's line: the same bytes its values would.
// allow says whether a contact's opt-out may be undone.
func ServiceDigest(desired *Book, service *ServiceList, applied AppliedStatuses, allow func(id string) bool) string {
	if serviceAsDesired(desired, service, applied, allow) {
		return DesiredDigest(desired) // the same lines: no second pass over a million
	}
	d := newContactsDigest(desired.Columns)
	for i := range desired.Len() {
		w := desired.Entry(i)
		have, ok := service.lookup(desired, i)
		if !ok {
			d.absent(w.ID)
			continue
		}
		ae, am := "", ""
		if applied != nil {
			ae, am = applied(w.ID)
		}
		email := EffectiveStatus(w.Email, ae, have.Email, allow(w.ID))
		mobile := EffectiveStatus(w.Mobile, am, have.Mobile, allow(w.ID))
		if have.Same {
			d.addBook(desired, i, email, mobile)
			continue
		}
		d.add(w.ID, have.Props, email, mobile)
	}
	return d.sum()
}

// serviceAsDesired reports whether ServiceDigest would write, for every
// contact, the line DesiredDigest writes: each is listed with the book's
// own values, and its statuses are as the book wants them once the consent
// rule has had its say.
func serviceAsDesired(desired *Book, service *ServiceList, applied AppliedStatuses, allow func(id string) bool) bool {
	if !desired.file {
		return false
	}
	for i := range desired.Len() {
		have, ok := service.lookup(desired, i)
		if !ok || !have.Same {
			return false
		}
		w := desired.Entry(i)
		if have.Email == w.Email && have.Mobile == w.Mobile {
			continue
		}
		ae, am := "", ""
		if applied != nil {
			ae, am = applied(w.ID)
		}
		if EffectiveStatus(w.Email, ae, have.Email, allow(w.ID)) != w.Email || EffectiveStatus(w.Mobile, am, have.Mobile, allow(w.ID)) != w.Mobile {
			return false
		}
	}
	return true
}

// SortedKeys returns the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
