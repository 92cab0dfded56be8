package contactsync

import "github.com/rms-labs/terraform-provider-rms/internal/client"

// rms_contact's one decision per contact: PlanContact combines the consent
// rule (Decide), the account's suppression list and the re-subscriptions
// an allowance was given (consented) for one contact, so that its plan,
// create, update, read and warnings all read the same answer. It follows
// the rule Compare follows for rms_list_contacts, channel by channel, and
// calls into the same pieces (Decide, suppressCreate, suppressExisting):
//
//  1. the suppression list: a channel it holds (less a consented one the
//     service does not show UNSUBSCRIBED again) is never made or left
//     SUBSCRIBED, unless the configuration allows a re-subscription and
//     wants that channel SUBSCRIBED (the allowance lifts the entry there,
//     and the channel is remembered as consented);
//  2. a kept opt-out: the recipient's own UNSUBSCRIBED against a
//     configured SUBSCRIBED is honoured, nothing is sent (Decide);
//  3. the input: the configured status, where Decide says to send it.
//
// Each channel has one reason, the first that applies (ChannelPlan.Reason).

// ContactInput is what rms_contact knows of one contact. Statuses are
// (e-mail, mobile); "" is none.
type ContactInput struct {
	// Create: the contact is to be created. Shown then holds the statuses
	// of the contact of the same id this run released and takes over
	// ("" for a new one): a take-over gives back a status the
	// configuration leaves to the service, and keeps an opt-out.
	Create bool
	// Desired are the configured statuses ("" left to the service).
	Desired [2]string
	// Applied are the desired statuses Terraform last applied ("" not
	// known: the opt-out the service shows is then the recipient's).
	Applied [2]string
	// Shown are the statuses the service holds ("" not shown).
	Shown [2]string
	// Allow is allow_resubscribe.
	Allow bool
	// SuppressionList: the contact answers to a suppression list, and
	// Suppressed are the channels it holds (by id or e-mail address).
	SuppressionList bool
	Suppressed      Channels
	// Consented are the channels an allowed re-subscription subscribed
	// over the suppression list before (rms_contact's private state): the
	// entry no longer holds them, until the service shows them
	// UNSUBSCRIBED again.
	Consented Channels
}

// Reason is why a channel's status is what ChannelPlan.Send says.
type Reason int

const (
	// ReasonNone means nothing to decide; nothing is sent (the service shows
	// the desired status, or the configuration leaves it to the service).
	ReasonNone Reason = iota
	// ReasonInput means Send is the configured status.
	ReasonInput
	// ReasonOptOut means the consent rule keeps the recipient's own opt-out of
	// a configured SUBSCRIBED: nothing is sent (a take-over keeps the
	// released contact's UNSUBSCRIBED).
	ReasonOptOut
	// ReasonSuppressed means the suppression list decided: Send is
	// UNSUBSCRIBED, or nothing where the service shows the channel
	// unsubscribed already and the configuration wants it SUBSCRIBED.
	ReasonSuppressed
	// ReasonReleased means a take-over gives back the released contact's
	// status on a channel the configuration leaves to the service.
	ReasonReleased
)

// String names the reason for logs and test failures.
func (r Reason) String() string {
	switch r {
	case ReasonInput:
		return "input"
	case ReasonOptOut:
		return "kept opt-out"
	case ReasonSuppressed:
		return "suppressed"
	case ReasonReleased:
		return "released"
	}
	return "none"
}

// Notice is the warning a plan gives about one channel.
type Notice int

const (
	// NoticeNone means no warning.
	NoticeNone Notice = iota
	// NoticeOptedOut means the recipient's opt-out is kept (ReasonOptOut).
	NoticeOptedOut
	// NoticeSuppressedUnsubscribed means the service shows SUBSCRIBED a
	// channel the suppression list holds: the apply unsubscribes it.
	NoticeSuppressedUnsubscribed
	// NoticeSuppressedNotSubscribed means the configuration wants SUBSCRIBED
	// a channel the suppression list holds and the service shows
	// unsubscribed: nothing is sent.
	NoticeSuppressedNotSubscribed
	// NoticeCreatedUnsubscribed means a contact to create the suppression list
	// holds on this channel is created unsubscribed there.
	NoticeCreatedUnsubscribed
)

// ChannelPlan is the decision for one channel of one contact.
type ChannelPlan struct {
	// Send is the status to write ("" none). For a create, it is the
	// status the contact is created with.
	Send   string
	Reason Reason
	// OptedOut: the consent rule keeps the recipient's opt-out (Decide),
	// whatever the suppression list says of the channel.
	OptedOut bool
	// Record: an opt-out the consent rule keeps on a contact the service
	// holds that the suppression list does not hold yet: the apply copies
	// it there.
	Record bool
	// Consented: the channel the suppression list holds that an allowed
	// re-subscription subscribed, or leaves subscribed: to remember after
	// this apply.
	Consented bool
	Notice    Notice
}

// ContactDecision is PlanContact's answer: (e-mail, mobile).
type ContactDecision struct {
	Channels [2]ChannelPlan
}

// Status is the status write of the decision.
func (d ContactDecision) Status() client.SubscriptionStatus {
	return client.SubscriptionStatus{Status: d.Channels[0].Send, MobileStatus: d.Channels[1].Send}
}

// where are the channels whose plan f holds.
func (d ContactDecision) where(f func(ChannelPlan) bool) Channels {
	return Channels{Email: f(d.Channels[0]), Mobile: f(d.Channels[1])}
}

// OptedOut are the channels whose opt-out the consent rule keeps.
func (d ContactDecision) OptedOut() Channels {
	return d.where(func(c ChannelPlan) bool { return c.OptedOut })
}

// ToRecord are the opt-outs to copy into the suppression list.
func (d ContactDecision) ToRecord() Channels {
	return d.where(func(c ChannelPlan) bool { return c.Record })
}

// Consented are the channels to remember as consented after this apply.
func (d ContactDecision) Consented() Channels {
	return d.where(func(c ChannelPlan) bool { return c.Consented })
}

// Noticed are the channels with notice n.
func (d ContactDecision) Noticed(n Notice) Channels {
	return d.where(func(c ChannelPlan) bool { return c.Notice == n })
}

// PlanContact decides every channel of one contact (see the top of this
// file for the precedence).
func PlanContact(in ContactInput) ContactDecision {
	// A consented channel the service shows UNSUBSCRIBED again is
	// forgotten: the recipient opted out again, and the entry holds it.
	consented := in.Consented.Without(UnsubscribedChannels(in.Shown[0], in.Shown[1]))
	var sup, lifted Channels
	if in.SuppressionList {
		// suppressedOf's rule: the allowance lifts the entry only where
		// the input wants the channel SUBSCRIBED.
		sup = in.Suppressed.Without(consented)
		if in.Allow {
			lifted = sup.Intersect(Channels{Email: in.Desired[0] == client.StatusSubscribed, Mobile: in.Desired[1] == client.StatusSubscribed})
			sup = sup.Without(lifted)
		}
	}
	var d ContactDecision
	if in.Create {
		d = planCreate(in, sup)
	} else {
		d = planExisting(in, sup)
	}
	kept := consented.Union(lifted)
	held := [2]bool{in.SuppressionList && in.Suppressed.Email, in.SuppressionList && in.Suppressed.Mobile}
	for i := range d.Channels {
		c := &d.Channels[i]
		c.Consented = ([2]bool{kept.Email, kept.Mobile})[i]
		c.Record = !in.Create && in.SuppressionList && c.OptedOut && !held[i]
	}
	return d
}

// planCreate is PlanContact for a contact to create (Compare's create:
// suppressCreate), or one this run released and takes over.
func planCreate(in ContactInput, sup Channels) ContactDecision {
	ch := Change{Create: true, Status: client.SubscriptionStatus{Status: in.Desired[0], MobileStatus: in.Desired[1]}}
	suppressCreate(&ch, sup)
	var d ContactDecision
	supp := [2]bool{sup.Email, sup.Mobile}
	changed := [2]bool{ch.Suppressed.Email, ch.Suppressed.Mobile}
	sent := [2]string{ch.Status.Status, ch.Status.MobileStatus}
	for i := range d.Channels {
		c := &d.Channels[i]
		desired, shown := in.Desired[i], in.Shown[i]
		switch {
		case supp[i]:
			c.Send, c.Notice, c.Reason = sent[i], NoticeCreatedUnsubscribed, ReasonInput
			if changed[i] {
				c.Reason = ReasonSuppressed
			}
		case desired == "":
			c.Send = shown
			if shown != "" {
				c.Reason = ReasonReleased
			}
		case Decide(desired, "", shown, in.Allow).OptedOut:
			// What Terraform applied to the released contact is not
			// known here: its opt-out is honoured.
			c.Send, c.Reason, c.OptedOut = shown, ReasonOptOut, true
		default:
			c.Send, c.Reason = desired, ReasonInput
		}
	}
	return d
}

// planExisting is PlanContact for a contact the service holds: Decide,
// then suppressExisting, as Compare does for a listed contact.
func planExisting(in ContactInput, sup Channels) ContactDecision {
	var d ContactDecision
	var ch Change
	var decided [2]Decision
	for i := range decided {
		decided[i] = Decide(in.Desired[i], in.Applied[i], in.Shown[i], in.Allow)
	}
	if decided[0].Send {
		ch.Status.Status = in.Desired[0]
	}
	if decided[1].Send {
		ch.Status.MobileStatus = in.Desired[1]
	}
	suppressExisting(&ch, sup, ServiceContact{Email: in.Shown[0], Mobile: in.Shown[1]}, in.Desired)
	sent := [2]*string{&ch.Status.Status, &ch.Status.MobileStatus}
	suppressed := [2]bool{ch.Suppressed.Email, ch.Suppressed.Mobile}
	supp := [2]bool{sup.Email, sup.Mobile}
	for i := range d.Channels {
		c := &d.Channels[i]
		shown := in.Shown[i]
		if supp[i] && shown == "" && *sent[i] == "" {
			// The one difference from Compare: a single contact whose
			// service does not show its status is unsubscribed where
			// held, on the safe side (unsubscribing is always allowed).
			// A list's contacts are not, or every apply would write
			// every suppressed contact again.
			*sent[i], suppressed[i] = client.StatusUnsubscribed, true
		}
		c.Send, c.OptedOut = *sent[i], decided[i].OptedOut
		switch {
		case suppressed[i]:
			c.Reason = ReasonSuppressed
		case decided[i].OptedOut:
			c.Reason = ReasonOptOut
		case decided[i].Send:
			c.Reason = ReasonInput
		}
		switch {
		case supp[i] && shown == client.StatusSubscribed:
			c.Notice = NoticeSuppressedUnsubscribed
		case supp[i] && shown == client.StatusUnsubscribed && in.Desired[i] == client.StatusSubscribed:
			c.Notice = NoticeSuppressedNotSubscribed
		case c.Reason == ReasonOptOut:
			c.Notice = NoticeOptedOut
		}
	}
	return d
}
