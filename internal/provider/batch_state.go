package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// The state side of the batch core, shared by the resources that start a
// batch (rms_list_import, rms_statistics_export). Such a resource records
// its batch as soon as the service names it, resumes an unfinished wait in
// place (a create cut short warns instead of failing, since Terraform
// replaces a resource whose create failed, which would start a second
// batch), drops a batch that failed or is gone from the state so that the
// next apply runs the operation again, and on destroy only forgets: the
// service cannot undo a batch.

// batchOperation is what the batch core needs to know of one operation that
// runs as a batch. Each operation declares its own beside its code
// (list_import_operation.go, statistics_export_operation.go).
type batchOperation struct {
	what      string // "List import": summaries and logs
	noun      string // "import": descriptions
	batchType string // the type of its batches on the service
	// defaultTimeout bounds a wait that neither a timeouts block nor an
	// action's timeout bounds.
	defaultTimeout time.Duration
	pendingNote    string // what the state lacks while the batch runs
	failedNote     string // what follows from a failed batch
	redo           string // what the next apply does once the batch left the state: "imports the file again"

	// What the schema says of the batch attributes (batchAttributes).
	batchIDDescription, totalDescription, startedDescription, finishedDescription string
}

// wait is the wait for one of the operation's batches, as a resource does
// it; an action adapts it with actionWait.
func (op batchOperation) wait(batchID string, timeout time.Duration, creating bool) batchWait {
	return batchWait{
		what: op.what, id: batchID, timeout: timeout, creating: creating,
		pendingNote: op.pendingNote, failedNote: op.failedNote,
	}
}

// batchModel is the part of a batch resource's state the core keeps. Each
// resource's model embeds it (by value, as the framework requires).
type batchModel struct {
	BatchID    types.String      `tfsdk:"batch_id"`
	Status     types.String      `tfsdk:"status"`
	Total      types.Int64       `tfsdk:"total"`
	StartedAt  timetypes.RFC3339 `tfsdk:"started_at"`
	FinishedAt timetypes.RFC3339 `tfsdk:"finished_at"`
}

// startedBatch is the state of a batch the service has just named and
// nobody has looked at yet; an empty id is a batch not (yet) known.
func startedBatch(batchID string) batchModel {
	m := batchModel{
		BatchID: types.StringNull(), Status: types.StringNull(), Total: types.Int64Null(),
		StartedAt: timetypes.NewRFC3339Null(), FinishedAt: timetypes.NewRFC3339Null(),
	}
	if batchID != "" {
		m.BatchID = types.StringValue(batchID)
	}
	return m
}

// record copies what the service says of the batch into the state.
func (m *batchModel) record(b *client.Batch) {
	m.Status = types.StringValue(b.Status)
	m.Total = types.Int64Value(b.Total)
	m.StartedAt = batchTimeValue(b.Started())
	m.FinishedAt = batchTimeValue(b.Ended())
}

// unfinished reports whether an earlier apply stopped waiting for the
// batch before it finished: the next apply resumes the wait.
func (m batchModel) unfinished() bool {
	return !m.BatchID.IsNull() && m.Status.ValueString() != client.BatchFinished
}

// planResume plans the resumption of an unfinished batch: what the batch
// will say when it finishes is known only after the apply. The caller marks
// its own attributes that follow from the batch unknown too.
func (m *batchModel) planResume(ctx context.Context, op batchOperation) {
	tflog.Info(ctx, strings.ToLower(op.what)+" has not finished in an earlier apply; planning to resume waiting",
		map[string]any{"batch_id": m.BatchID.ValueString(), "status": m.Status.ValueString()})
	m.Status, m.Total, m.FinishedAt = types.StringUnknown(), types.Int64Unknown(), timetypes.NewRFC3339Unknown()
}

// waitAndRecord waits for the recorded batch and records what it last saw.
// It returns the batch as last seen (nil if never read) and whether it
// finished successfully.
func (m *batchModel) waitAndRecord(ctx context.Context, d *providerData, op batchOperation, timeout time.Duration, creating bool, diags *diag.Diagnostics) (*client.Batch, bool) {
	b, ok := waitForBatch(ctx, d, op.wait(m.BatchID.ValueString(), timeout, creating), diags)
	if b != nil {
		m.record(b)
	}
	return b, ok
}

// readBatch refreshes a batch resource's batch. It returns nil when the
// resource has left the state (the batch is gone, or failed: the next apply
// runs the operation again) or an error was reported.
func readBatch(ctx context.Context, d *providerData, op batchOperation, batchID string, resp *resource.ReadResponse) *client.Batch {
	b, err := d.client.GetBatch(ctx, batchID)
	if client.IsNotFound(err) {
		tflog.Info(ctx, strings.ToLower(op.what)+" batch is gone; removing it from state", map[string]any{"batch_id": batchID})
		resp.State.RemoveResource(ctx)
		return nil
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to read "+strings.ToLower(op.what)+" "+batchID, err, nil)
		return nil
	}
	if b.Type != "" && b.Type != op.batchType {
		resp.Diagnostics.AddError("Not a "+strings.ToLower(op.what),
			fmt.Sprintf("Batch %s is a batch of type %s, not a %s (%s). Check the batch id.", batchID, b.Type, strings.ToLower(op.what), op.batchType))
		return nil
	}
	if failure := b.Err(); failure != nil {
		resp.Diagnostics.AddWarning(op.what+" failed",
			fmt.Sprintf("%s.\n\nIt is removed from the state; the next apply %s.", failure, op.redo))
		resp.State.RemoveResource(ctx)
		return nil
	}
	return b
}

// forgetBatch is a batch resource's destroy: the service has no call that
// undoes a batch, so the resource only leaves the state, and says so.
func forgetBatch(op batchOperation, detail string, diags *diag.Diagnostics) {
	diags.AddWarning(op.what+" only forgotten", detail)
}

// batchTimeValue turns a batch's time into a state value; zero (not set) is
// null.
func batchTimeValue(t time.Time) timetypes.RFC3339 {
	if t.IsZero() {
		return timetypes.NewRFC3339Null()
	}
	return timetypes.NewRFC3339TimeValue(t.UTC())
}
