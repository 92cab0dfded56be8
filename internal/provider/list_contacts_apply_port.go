package provider

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// errReported stops the apply sequence (contactsync.Apply) at a step whose
// failure the port already reported in diagnostics.
var errReported = errors.New("reported in diagnostics")

// listApplyPort is how contactsync.Apply reads and writes one list of an
// rms_list_contacts apply: the provider's reader, writer and suppression
// list, reporting into the apply's diagnostics. It decides nothing: what
// is refused and what is recorded are the core's (applyInputOf hands it
// the limits and the plan's count).
type listApplyPort struct {
	r       *listContactsResource
	w       *contactWriter
	plan    listContactsModel
	prior   *listContactsModel
	private privateSetter
	diags   *diag.Diagnostics
}

var _ contactsync.ListPort = (*listApplyPort)(nil)

// applyInputOf maps an apply's plan, and what earlier applies left in
// private state, to what contactsync.Apply starts from; counted is what
// the plan's refresh counted that exclusive may unsubscribe (nil without
// one: list_contacts_exclusive_counted.go).
func applyInputOf(ctx context.Context, data *providerData, plan listContactsModel, prior *listContactsModel, applied contactsync.Record, pending []string, counted *contactsync.Counted) contactsync.ApplyInput {
	input := contactsync.ApplyInput{
		ListID: plan.ListID.ValueString(), Creating: prior == nil, File: plan.isFile(), Rules: plan.rules(),
		Record: applied, Pending: pending, BatchThreshold: plan.BatchThreshold.ValueInt64(),
		Exclusive: exclusiveGuardOf(ctx, data, plan, prior, counted),
		Released:  data.contacts.Released, Provenance: data.contacts.Provenance, Log: providerLogger{},
	}
	if input.File {
		input.Source, input.PlannedDigest = plan.fileOptions(), plan.DesiredSHA256.ValueString() // "" while unknown
	}
	return input
}

// reported is errReported unless ok.
func reported(ok bool) error {
	if ok {
		return nil
	}
	return errReported
}

// Desired reads the input. Every per-contact input the service refuses is
// refused here, before the first write (and at plan, by the same
// desiredOf), so that an apply never stops half way on input it could
// have refused. The service's contact calls refuse: an empty originalId
// (a map key; a file's empty identity), a property key that names no
// attribute of the account or names one twice (a map's keys, a file's
// columns: contactsync.CheckAttributeKey, contactsync/file_columns.go;
// the plan only warns of a key of no attribute, which may be made earlier
// in the apply: desiredAtApply reads the attributes again),
// and a status other than SUBSCRIBED or UNSUBSCRIBED (the schema's
// validators; a file's status cells). The interface constrains no
// property value (any string), so there is nothing else to check. A map
// input's removals come from the prior state (desiredOf).
func (p *listApplyPort) Desired(ctx context.Context) (*contactsync.Book, error) {
	prior := types.MapNull(listContactEntryType)
	if p.prior != nil {
		prior = p.prior.Contacts
	}
	desired, d := listReaderOf(p.r.data).desiredAtApply(ctx, p.plan, prior)
	p.diags.Append(d...)
	return desired, reported(!d.HasError())
}

// FinalPlanListing takes what the final plan of this apply listed
// (recountUnlisted), kept under the input's key.
func (p *listApplyPort) FinalPlanListing() (contactsync.Snapshot, bool) {
	return p.r.data.contacts.Snapshots.Take(p.w.listID, finalPlanKey(p.plan))
}

func (p *listApplyPort) Resume(ctx context.Context, batchID string) error {
	return reported(p.w.resume(ctx, batchID, p.diags))
}

func (p *listApplyPort) List(ctx context.Context, desired *contactsync.Book) (*contactsync.ServiceList, error) {
	service, err := p.r.data.contacts.List(ctx, p.w.listID, listOptionsOf(p.plan, desired))
	if err != nil {
		listError(p.diags, p.w.listID, err)
		return nil, errReported
	}
	return service, nil
}

func (p *listApplyPort) ReadBack(ctx context.Context, desired *contactsync.Book) (*contactsync.ServiceList, error) {
	service, err := p.r.data.contacts.List(ctx, p.w.listID, listOptionsOf(p.plan, desired))
	if err != nil {
		p.w.readBackFailed(p.diags, err)
		return nil, errReported
	}
	return service, nil
}

// ReadSuppression reads the suppression list the plan names (nil without
// one).
func (p *listApplyPort) ReadSuppression(ctx context.Context) (contactsync.SuppressedFunc, error) {
	lookup, ok := listSuppressionOf(p.r.data).lookup(ctx, p.plan, p.diags)
	return lookup, reported(ok)
}

// RecordOptOuts writes the opt-outs the core decided into the suppression
// list, before the apply's first write.
func (p *listApplyPort) RecordOptOuts(ctx context.Context, desired *contactsync.Book, service *contactsync.ServiceList, decided []contactsync.OptOutDecision) error {
	return reported(listSuppressionOf(p.r.data).recordOptOuts(ctx, p.plan, desired, service, decided, p.diags))
}

func (p *listApplyPort) Import(ctx context.Context, action string, write func(io.Writer) error, started func(string)) (bool, error) {
	ok := p.w.runImport(ctx, action, func(f *os.File) error { return write(f) }, started, p.diags)
	return !p.w.unconfirmed, reported(ok)
}

func (p *listApplyPort) Write(ctx context.Context, changes []contactsync.Change, started func(string)) (map[string]bool, error) {
	failed, finished := p.w.writeChanges(ctx, changes, started, p.diags)
	return failed, reported(finished)
}

func (p *listApplyPort) SavePending(ctx context.Context, batchIDs []string) {
	p.diags.Append(writeJSONKey(ctx, p.private, privateBatches, batchIDs)...)
}
