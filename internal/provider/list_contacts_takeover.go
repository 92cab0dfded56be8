package provider

import (
	"context"
	"encoding/json"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// A replacement of rms_list_contacts (-replace, a tainted object, a changed
// argument that forces one) must unsubscribe nobody, not even for the
// moment between the old object's destroy and the new one's create: the
// service tells the account's systems about every unsubscription
// (contact.unsubscribed webhooks), and a recipient shown UNSUBSCRIBED may
// not be subscribed again without their consent. The new object takes the
// list over instead, as an update would, and the old one lets it go.
//
// Terraform orders the two halves in one of two ways, and each way gives
// the provider one means of knowing:
//
//   - destroy, then create (the default): Terraform hands the create plan's
//     private state to the destroy half. The create plan (ModifyPlan with
//     no prior state) leaves a takeover note naming the list; a destroy
//     that finds a note unsubscribes nobody. The note also carries the
//     replaced object's consent record (what Terraform last applied, what
//     it unsubscribed itself), which the create plan takes from the
//     refresh of the same run (Terraform gives the create plan of a
//     replacement no private state), and the destroy half hands it to the
//     create half in memory.
//   - create, then destroy (create_before_destroy): the deposed object's
//     destroy runs after the create in the same provider process, with its
//     own private state. The create registers its list in the run's
//     provenance; the deposed destroy of the same list finds it there.
//     The new object starts without the old one's consent record (the
//     framework hands a create no private state, and the destroy runs
//     last), so it errs on the side of consent: a contact shown
//     UNSUBSCRIBED counts as the recipient's own opt-out. It leaves those
//     contacts (the ones whose status it held back) in the run's
//     provenance, and the deposed destroy, which has the old record, sends
//     the statuses the old record shows were Terraform's to give back.
//
// A plain destroy sees neither: a create starts with empty private state
// (the framework does not hand it the planned one), so the note never
// reaches the state, and a run's takeovers die with the provider process,
// so a deposed object destroyed by a later apply is an ordinary destroy.
// A destroy half unsubscribes nobody, whichever list the new object
// manages: a replacement that moves to another list forgets the old list's
// contacts, as an update that drops them would.

// privateTakeover is the private-state key of a contactsync.TakeoverNote.
const privateTakeover = "takeover"

// readTakeover returns the takeover note p holds, if any.
func readTakeover(ctx context.Context, p privateGetter) (contactsync.TakeoverNote, bool) {
	var note contactsync.TakeoverNote
	if p == nil {
		return note, false
	}
	raw, diags := p.GetKey(ctx, privateTakeover)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &note) != nil {
		return contactsync.TakeoverNote{}, false
	}
	return note, true
}
