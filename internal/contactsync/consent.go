package contactsync

import "github.com/rms-labs/terraform-provider-rms/internal/client"

// Consent: an opt-out a recipient made outside Terraform (on a hosted
// opt-out page, say) must never be undone by an apply, unless the
// configuration explicitly allows it. A marketing service that re-subscribes
// someone who left breaks the law in many places, and Terraform would do it
// silently on the next apply of a configuration that says SUBSCRIBED.
//
// Terraform requires a planned value to equal its configured value, so the
// configured status is the *desired* one, and what the service holds is
// shown apart. Decide is the one rule every resource that writes
// statuses follows (rms_contact, rms_list_contacts).

// Decision is what to do about one channel (e-mail or mobile) of one
// contact.
type Decision struct {
	// Send: write the desired status to the service.
	Send bool
	// OptedOut: the recipient opted out outside Terraform and the desired
	// SUBSCRIBED is not applied; the plan warns and names the contact.
	OptedOut bool
}

// Decide decides one channel of one contact.
//
//   - desired is the configured status ("" when the configuration leaves it
//     to the service: nothing is ever sent then);
//   - applied is the desired status Terraform last applied to this contact
//     ("" when unknown: a contact imported, or state written before this
//     rule);
//   - service is what the service shows ("" when its answers do not show
//     statuses: an opt-out cannot be seen then, and the desired status is
//     sent only when it changed from the one applied);
//   - allowResubscribe is the explicit setting that lets an apply undo an
//     opt-out made elsewhere.
//
// Unsubscribing is always allowed. Subscribing a contact the service shows
// unsubscribed is allowed only when the configuration itself asks for the
// change (applied was UNSUBSCRIBED, desired is SUBSCRIBED) or when
// allowResubscribe is set; when Terraform last applied SUBSCRIBED, or does
// not know what it applied, the UNSUBSCRIBED the service shows is the
// recipient's own opt-out, and it is honoured.
func Decide(desired, applied, service string, allowResubscribe bool) Decision {
	switch {
	case desired == "":
		return Decision{}
	case service == "":
		return Decision{Send: desired != applied}
	case service == desired:
		return Decision{}
	case desired != client.StatusSubscribed || service != client.StatusUnsubscribed:
		// Unsubscribing, or a state of the service's own (PENDING) that
		// no recipient chose: nothing to honour.
		return Decision{Send: true}
	case allowResubscribe || applied == client.StatusUnsubscribed:
		return Decision{Send: true}
	default:
		return Decision{OptedOut: true}
	}
}
