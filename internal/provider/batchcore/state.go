package batchcore

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
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
)

// The state side of the batch core, shared by the resources that start a
// batch (rms_list_import, rms_statistics_export). Such a resource records
// its batch as soon as the service names it, resumes an unfinished wait in
// place (a create cut short warns instead of failing, since Terraform
// replaces a resource whose create failed, which would start a second
// batch), drops a batch that failed or is gone from the state so that the
// next apply runs the operation again, and on destroy only forgets: the
// service cannot undo a batch.

// Operation is what the batch core needs to know of one operation that
// runs as a batch. Each operation declares its own beside its code
// (internal/provider/operation, and rms_list_contacts' imports).
type Operation struct {
	What      string // "List import": summaries and logs
	Noun      string // "import": descriptions
	BatchType string // the type of its batches on the service
	// DefaultTimeout bounds a wait that neither a timeouts block nor an
	// action's timeout bounds.
	DefaultTimeout time.Duration
	PendingNote    string // what the state lacks while the batch runs
	FailedNote     string // what follows from a failed batch
	Redo           string // what the next apply does once the batch left the state: "imports the file again"

	// What the schema says of the batch attributes (attributes).
	BatchIDDescription, TotalDescription, StartedDescription, FinishedDescription string
}

// Wait is the wait for one of the operation's batches, as a resource does
// it; an action adapts it (actionWait in internal/provider).
func (op Operation) Wait(batchID string, timeout time.Duration, creating bool) Wait {
	return Wait{
		What: op.What, ID: batchID, Timeout: timeout, Creating: creating,
		PendingNote: op.PendingNote, FailedNote: op.FailedNote,
	}
}

// Model is the part of a batch resource's state the core keeps. Each
// resource's model embeds it (by value, as the framework requires).
type Model struct {
	BatchID    types.String      `tfsdk:"batch_id"`
	Status     types.String      `tfsdk:"status"`
	Total      types.Int64       `tfsdk:"total"`
	StartedAt  timetypes.RFC3339 `tfsdk:"started_at"`
	FinishedAt timetypes.RFC3339 `tfsdk:"finished_at"`
}

// Started is the state of a batch the service has just named and nobody
// has looked at yet; an empty id is a batch not (yet) known.
func Started(batchID string) Model {
	m := Model{
		BatchID: types.StringNull(), Status: types.StringNull(), Total: types.Int64Null(),
		StartedAt: timetypes.NewRFC3339Null(), FinishedAt: timetypes.NewRFC3339Null(),
	}
	if batchID != "" {
		m.BatchID = types.StringValue(batchID)
	}
	return m
}

// Record copies what the service says of the batch into the state.
func (m *Model) Record(b *client.Batch) {
	m.Status = types.StringValue(b.Status)
	m.Total = types.Int64Value(b.Total)
	m.StartedAt = TimeValue(b.Started())
	m.FinishedAt = TimeValue(b.Ended())
}

// Unfinished reports whether an earlier apply stopped waiting for the
// batch before it finished: the next apply resumes the wait.
func (m Model) Unfinished() bool {
	return !m.BatchID.IsNull() && m.Status.ValueString() != client.BatchFinished
}

// PlanResume plans the resumption of an unfinished batch: what the batch
// will say when it finishes is known only after the apply. The caller marks
// its own attributes that follow from the batch unknown too.
func (m *Model) PlanResume(ctx context.Context, op Operation) {
	tflog.Info(ctx, strings.ToLower(op.What)+" has not finished in an earlier apply; planning to resume waiting",
		map[string]any{"batch_id": m.BatchID.ValueString(), "status": m.Status.ValueString()})
	m.Status, m.Total, m.FinishedAt = types.StringUnknown(), types.Int64Unknown(), timetypes.NewRFC3339Unknown()
}

// WaitAndRecord waits for the recorded batch and records what it last saw.
// It returns the batch as last seen (nil if never read) and whether it
// finished successfully.
func (m *Model) WaitAndRecord(ctx context.Context, svc Service, op Operation, timeout time.Duration, creating bool, diags *diag.Diagnostics) (*client.Batch, bool) {
	b, ok := WaitFor(ctx, svc, op.Wait(m.BatchID.ValueString(), timeout, creating), diags)
	if b != nil {
		m.Record(b)
	}
	return b, ok
}

// Read refreshes a batch resource's batch. It returns nil when the
// resource has left the state (the batch is gone, or failed: the next apply
// runs the operation again) or an error was reported.
func Read(ctx context.Context, c *client.Client, op Operation, batchID string, resp *resource.ReadResponse) *client.Batch {
	b, err := c.Batches.Get(ctx, batchID)
	if client.IsNotFound(err) {
		tflog.Info(ctx, strings.ToLower(op.What)+" batch is gone; removing it from state", map[string]any{"batch_id": batchID})
		resp.State.RemoveResource(ctx)
		return nil
	}
	if err != nil {
		apidiag.Add(&resp.Diagnostics, "Unable to read "+strings.ToLower(op.What)+" "+batchID, err, nil)
		return nil
	}
	if b.Type != "" && b.Type != op.BatchType {
		resp.Diagnostics.AddError("Not a "+strings.ToLower(op.What),
			fmt.Sprintf("Batch %s is a batch of type %s, not a %s (%s). Check the batch id.", batchID, b.Type, strings.ToLower(op.What), op.BatchType))
		return nil
	}
	if failure := b.Err(); failure != nil {
		resp.Diagnostics.AddWarning(op.What+" failed",
			fmt.Sprintf("%s.\n\nIt is removed from the state; the next apply %s.", failure, op.Redo))
		resp.State.RemoveResource(ctx)
		return nil
	}
	return b
}

// Forget is a batch resource's destroy: the service has no call that
// undoes a batch, so the resource only leaves the state, and says so.
func Forget(op Operation, detail string, diags *diag.Diagnostics) {
	diags.AddWarning(op.What+" only forgotten", detail)
}

// TimeValue turns a batch's time into a state value; zero (not set) is
// null.
func TimeValue(t time.Time) timetypes.RFC3339 {
	if t.IsZero() {
		return timetypes.NewRFC3339Null()
	}
	return timetypes.NewRFC3339TimeValue(t.UTC())
}
