package contactsync

import "github.com/rms-labs/terraform-provider-rms/internal/client"

// The rule of the guardrail on mass unsubscription, and the counts it
// reads. An unsubscription is close to irreversible, and a REPLACE import
// removes contacts for good, so a plan or an apply above the limits is
// held back before anything is written. The rule is the core's, like every
// decision about a contact; the provider resolves the limits in force
// (resource, provider block, default) and turns a count and a verdict into
// diagnostics (internal/provider/unsubscribe_guardrail.go).

// Limits are the limits in force for one plan or apply.
type Limits struct {
	Count   int64   // max_unsubscribe
	Percent float64 // max_unsubscribe_percent
}

// ChannelShare is what one plan does on one channel of a list: Count
// contacts unsubscribed out of Of contacts subscribed on that channel
// before the change. For a REPLACE import (Channel "") it is the contacts
// removed out of all the list's contacts.
type ChannelShare struct {
	Channel string // "e-mail", "mobile"; "" for removal from the list
	Count   int
	Of      int
}

// Share is the percentage of the channel's subscribers the plan touches.
func (s ChannelShare) Share() float64 {
	if s.Of == 0 {
		return 0
	}
	return 100 * float64(s.Count) / float64(s.Of)
}

// UnsubscribeCount is what one plan will do to a list, per channel. The
// share is of the contacts subscribed on the channel before the change,
// not of every contact the list holds: the interface cannot delete a
// contact, so contacts unsubscribed long ago pile up in a list and would
// make any share look small. A REPLACE import removes contacts for good,
// whatever their status: its share stays of all the list's contacts.
type UnsubscribeCount struct {
	ListID   string
	Channels []ChannelShare
	// ListSize is the number of contacts the list holds now.
	ListSize int
	Removes  bool
	// NoStatuses: the service shows no contact's subscription status, so
	// every contact counts as subscribed and each share is of all of them.
	NoStatuses bool
	// What does it, for the messages: "exclusive = true", "the REPLACE
	// import", "destroying rms_list_contacts".
	What string
}

// Total is the number of unsubscriptions (or removals) over all channels.
func (c UnsubscribeCount) Total() int {
	n := 0
	for _, ch := range c.Channels {
		n += ch.Count
	}
	return n
}

// Worst is the largest count and the largest share over the channels:
// the limits that let the whole plan through.
func (c UnsubscribeCount) Worst() (count int, share float64) {
	for _, ch := range c.Channels {
		count, share = max(count, ch.Count), max(share, ch.Share())
	}
	return count, share
}

// Exceeds is the rule: held back when, on some channel, the count is
// above Count AND the share of that channel's subscribers above Percent,
// so that raising either one lets a plan through.
func (l Limits) Exceeds(c UnsubscribeCount) bool {
	for _, ch := range c.Channels {
		if int64(ch.Count) > l.Count && ch.Share() > l.Percent {
			return true
		}
	}
	return false
}

// subscribersOf counts the contacts of a listing subscribed on each
// channel (a status the service does not show counts as subscribed, as an
// exclusive apply takes it), and whether the service shows any status.
func subscribersOf(service *ServiceList) (email, mobile int, shown bool) {
	for _, s := range service.All() {
		if s.Email != client.StatusUnsubscribed {
			email++
		}
		if s.Mobile != client.StatusUnsubscribed {
			mobile++
		}
		shown = shown || s.Email != "" || s.Mobile != ""
	}
	return email, mobile, shown
}

// ChannelCount is the count of a plan that unsubscribes email contacts
// from e-mail and, when mobile is not negative, mobile contacts from
// mobile, in a list holding service.
func ChannelCount(listID, what string, service *ServiceList, email, mobile int) UnsubscribeCount {
	subEmail, subMobile, shown := subscribersOf(service)
	c := UnsubscribeCount{ListID: listID, What: what, ListSize: service.Len(), NoStatuses: !shown && service.Len() > 0,
		Channels: []ChannelShare{{Channel: "e-mail", Count: email, Of: subEmail}}}
	if mobile >= 0 {
		c.Channels = append(c.Channels, ChannelShare{Channel: "mobile", Count: mobile, Of: subMobile})
	}
	return c
}

// RemovalCount is the count of a plan that removes n contacts from a list
// of size contacts (a REPLACE import).
func RemovalCount(listID, what string, n, size int) UnsubscribeCount {
	return UnsubscribeCount{ListID: listID, What: what, ListSize: size, Removes: true, Channels: []ChannelShare{{Count: n, Of: size}}}
}

// ExclusiveCount is what an exclusive diff unsubscribes, per channel, out
// of the contacts the list holds subscribed on it: an exclusive
// unsubscription changes each channel the contact is not unsubscribed from.
func ExclusiveCount(listID string, service *ServiceList, diff Diff) UnsubscribeCount {
	email, mobile := 0, 0
	for ch := range diff.All() {
		if !ch.Unsubscribe {
			continue
		}
		s, _ := service.Get(ch.ID)
		if s.Email != client.StatusUnsubscribed {
			email++
		}
		if s.Mobile != client.StatusUnsubscribed {
			mobile++
		}
	}
	return ChannelCount(listID, "exclusive = true", service, email, mobile)
}

// ExclusiveUnsubscribed are the contacts an exclusive diff unsubscribes.
func ExclusiveUnsubscribed(diff Diff) []string {
	var ids []string
	for ch := range diff.All() {
		if ch.Unsubscribe {
			ids = append(ids, ch.ID)
		}
	}
	return ids
}
