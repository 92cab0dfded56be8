package contactsync

import (
	"fmt"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// A contact whose originalId a URL path cannot carry (client.PathSafeID:
// "." and "..") has no single-contact call: a server resolves the id as a
// dot segment. What the service can still do for it goes through calls
// that carry the id in a body: the create (POST .../contacts, with its
// statuses), the listing (GET .../contacts), and ADD and UNSUBSCRIBE
// imports (the id in a CSV row). What none of them can do is Unwritable,
// refused at plan.

// BodyWrites are the import rows that write the changes of contacts a path
// cannot carry: ADD rows set property values of contacts the list has
// (an ADD import merges non-empty values), UNSUBSCRIBE rows unsubscribe
// their e-mail.
type BodyWrites struct {
	Add         []Change
	Unsubscribe []string
}

// Empty reports whether there is no row to import.
func (b BodyWrites) Empty() bool { return len(b.Add) == 0 && len(b.Unsubscribe) == 0 }

// Unwritable is what no call that carries the id in a body can do for one
// contact, and why.
type Unwritable struct {
	ID   string
	What []string
}

// String names the contact and what cannot be written.
func (u Unwritable) String() string {
	return fmt.Sprintf("%q: %s", u.ID, strings.Join(u.What, "; "))
}

// SplitPathUnsafe splits changes into those single calls make (every
// contact a path can carry, and the creates of those it cannot: the POST
// carries the id and the statuses in its body), the import rows of the
// other changes of contacts a path cannot carry, and what nothing can
// write for those: removing a property value (an ADD import skips empty
// cells), setting e-mail SUBSCRIBED on a contact the list has (only the
// subscription-status call re-subscribes) and any mobile status of such a
// contact (an UNSUBSCRIBE import unsubscribes e-mail only). Changes keep
// their order.
func SplitPathUnsafe(changes []Change) (singles []Change, body BodyWrites, unwritable []Unwritable) {
	for _, ch := range changes {
		if ch.Create || client.PathSafeID(ch.ID) {
			singles = append(singles, ch)
			continue
		}
		st := ch.Status
		if ch.Unsubscribe && st == (client.SubscriptionStatus{}) {
			st = client.SubscriptionStatus{Status: client.StatusUnsubscribed, MobileStatus: client.StatusUnsubscribed}
		}
		var what []string
		if ch.hasValues() {
			body.Add = append(body.Add, Change{ID: ch.ID, Set: ch.Values()})
		}
		if len(ch.Remove) > 0 {
			what = append(what, "removing the value of "+strings.Join(ch.Remove, ", ")+" (an ADD import, the only write of its properties, skips empty values)")
		}
		switch st.Status {
		case client.StatusUnsubscribed:
			body.Unsubscribe = append(body.Unsubscribe, ch.ID)
		case "":
		default:
			what = append(what, "setting its e-mail status "+st.Status+" (only the subscription-status call, addressed by the id in the path, subscribes a contact the list has)")
		}
		if st.MobileStatus != "" {
			what = append(what, "setting its mobile status "+st.MobileStatus+" (only the subscription-status call, addressed by the id in the path, sets it on a contact the list has; an UNSUBSCRIBE import unsubscribes e-mail only)")
		}
		if len(what) > 0 {
			unwritable = append(unwritable, Unwritable{ID: ch.ID, What: what})
		}
	}
	return singles, body, unwritable
}

// MobileOutOfReach names, in id order, the contacts exclusive leaves
// subscribed to mobile because a path cannot carry their id: their
// e-mail is unsubscribed by an UNSUBSCRIBE import, and no call that
// carries the id in a body unsubscribes mobile.
func MobileOutOfReach(desired *Book, service *ServiceList) []string {
	var out []string
	for _, id := range service.Unnamed(desired) {
		if client.PathSafeID(id) {
			continue
		}
		if s, _ := service.Get(id); s.Mobile != client.StatusUnsubscribed {
			out = append(out, id)
		}
	}
	return out
}

// reachable is s as far as the provider can write it: the mobile channel
// of a contact whose id a path cannot carry counts as unsubscribed, since
// nothing could unsubscribe it (MobileOutOfReach names it instead), so
// exclusive neither plans a write it cannot make nor finds drift it cannot
// undo on every plan.
func (s ServiceContact) reachable(id string) ServiceContact {
	if !client.PathSafeID(id) {
		s.Mobile = client.StatusUnsubscribed
	}
	return s
}
