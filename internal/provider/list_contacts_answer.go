package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// listContactsAnswer is what an apply of rms_list_contacts answers
// Terraform with, decided explicitly on every path. Terraform saves
// whatever non-null state and private state come back, with an error too,
// and an update's answer starts as the prior state, a create's as null: a
// refused or failed apply must not leave the refused input in the state
// (the next plan would show an update that writes nothing), nor record in
// private state an unsubscription it did not make (a later apply would
// take a recipient's opt-out for Terraform's own and undo it).
type listContactsAnswer struct {
	ctx      context.Context
	prior    *listContactsModel // nil for a create
	out      *listContactsModel // the planned values, as the apply leaves them
	applied  *contactsync.Record
	pending  *[]string
	private  privateSetter
	state    *tfsdk.State
	identity *tfsdk.ResourceIdentity
	diags    *diag.Diagnostics
	// wrote is set once the apply started writing to the service: a create
	// that fails after it is saved (and tainted by Terraform), so nothing
	// it made is orphaned.
	wrote bool
}

// done answers with the planned values: the apply did its work, and an
// adopted list is managed from here on.
func (a *listContactsAnswer) done() {
	setListContacts(a.ctx, a.state, *a.out, a.diags)
	setIdentity(a.ctx, a.identity, listContactsIdentity{ListID: a.out.ListID}, a.diags)
	a.savePrivate()
	a.diags.Append(endAdopting(a.ctx, a.private)...)
}

// waitCutShort answers an apply whose wait for a batch ended early. A wait
// cut short by a timeout, an interrupt or an outage is a warning: the
// planned values are saved (Terraform requires them of an apply without
// errors), the batch ids stay in private state, and the next apply resumes
// them before it writes anything. A wait that ended with an error (the
// batch failed on the service) stops the apply.
func (a *listContactsAnswer) waitCutShort() {
	if a.diags.HasError() {
		a.wrote = true // a batch ran
		a.stopped()
		return
	}
	a.done()
}

// stopped answers an apply that ends with an error: an update keeps its
// prior state, a create that wrote nothing saves nothing (no taint, no
// destroy), and a create that wrote something saves the planned values,
// which Terraform taints. The private state holds the record as this apply
// leaves it: the prior one plus what the service confirmed, and the
// releases recorded before writes that started.
func (a *listContactsAnswer) stopped() {
	switch {
	case a.prior != nil:
		setListContacts(a.ctx, a.state, *a.prior, a.diags)
		setIdentity(a.ctx, a.identity, listContactsIdentity{ListID: a.prior.ListID}, a.diags)
		a.savePrivate()
	case a.wrote:
		a.done()
	}
}

func (a *listContactsAnswer) savePrivate() {
	a.diags.Append(writeJSONKey(a.ctx, a.private, privateApplied, *a.applied)...)
	a.diags.Append(writeJSONKey(a.ctx, a.private, privateBatches, *a.pending)...)
}
