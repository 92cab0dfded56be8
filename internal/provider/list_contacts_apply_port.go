package provider

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// errReported stops the apply sequence (contactsync.Apply) at a step whose
// failure the port already reported in diagnostics.
var errReported = errors.New("reported in diagnostics")

// listApplyPort is how contactsync.Apply reads and writes one list of an
// rms_list_contacts apply: the provider's writer, guardrails and
// suppression list, reporting into the apply's diagnostics.
type listApplyPort struct {
	r       *listContactsResource
	w       *contactWriter
	plan    listContactsModel
	prior   *listContactsModel
	counted *contactsync.Counted
	private privateSetter
	diags   *diag.Diagnostics
}

var _ contactsync.ListPort = (*listApplyPort)(nil)

// reported is errReported unless ok.
func reported(ok bool) error {
	if ok {
		return nil
	}
	return errReported
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

func (p *listApplyPort) Suppress(ctx context.Context, opts *contactsync.Options) error {
	return reported(listSuppressionOf(p.r.data).withSuppression(ctx, p.plan, opts, p.diags))
}

func (p *listApplyPort) Guard(ctx context.Context, desired *contactsync.Book, service *contactsync.ServiceList, diff contactsync.Diff) error {
	return reported(listGuardOf(p.r.data).guardExclusiveApply(p.plan, service, diff, p.diags) &&
		listGuardOf(p.r.data).guardExclusiveCounted(ctx, p.plan, p.prior, desired, p.counted, diff, p.diags))
}

func (p *listApplyPort) RecordOptOuts(ctx context.Context, desired *contactsync.Book, service *contactsync.ServiceList, rec contactsync.Record) error {
	return reported(listSuppressionOf(p.r.data).recordOptOuts(ctx, p.plan, desired, service, rec, p.diags))
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
