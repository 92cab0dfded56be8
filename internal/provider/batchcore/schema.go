package batchcore

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/validators"
)

// The schema side of the batch core: the attributes every batch resource
// shows of its batch (they match Model), its timeouts block, and the
// timeout argument of the batch actions, so that they read the same
// everywhere.

// attributes is the schema fragment of Model. The resource adds the
// attributes of its own operation (WithAttributes).
func attributes(op Operation) map[string]schema.Attribute {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return map[string]schema.Attribute{
		"batch_id": schema.StringAttribute{
			Computed:      true,
			Description:   op.BatchIDDescription,
			PlanModifiers: keep,
		},
		"status": schema.StringAttribute{
			Computed:      true,
			Description:   "Status of the batch: `PENDING`, `IN_PROGRESS` or `FINISHED`. Anything but `FINISHED` means an earlier apply stopped waiting; the next apply resumes.",
			PlanModifiers: keep,
		},
		"total": CountAttribute(op.TotalDescription),
		"started_at": schema.StringAttribute{
			Computed:      true,
			CustomType:    timetypes.RFC3339Type{},
			Description:   op.StartedDescription,
			PlanModifiers: keep,
		},
		"finished_at": schema.StringAttribute{
			Computed:      true,
			CustomType:    timetypes.RFC3339Type{},
			Description:   op.FinishedDescription,
			PlanModifiers: keep,
		},
	}
}

// CountAttribute is a count the batch reports, kept in the plan until a
// resumed wait reads it again.
func CountAttribute(description string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Computed:      true,
		Description:   description,
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
	}
}

// TimeoutsBlock is the timeouts block of a batch resource: create
// bounds the first wait (cut short, it warns and keeps the batch), update
// the wait an apply resumes. updateAlso names what else an update may do
// in that time ("" for nothing).
func TimeoutsBlock(ctx context.Context, op Operation, updateAlso string) schema.Block {
	def := durationText(op.DefaultTimeout)
	b := timeouts.Block(ctx, timeouts.Opts{
		Create: true,
		Update: true,
		CreateDescription: fmt.Sprintf("How long to wait for the %s's batch when it is started, as a Go duration (`45m`, `2h`). Default `%s`. "+
			"When it passes, the apply ends with a warning and the resource keeps the batch id; the next apply resumes waiting on the same batch.", op.Noun, def),
		UpdateDescription: fmt.Sprintf("How long an apply that resumes waiting on an unfinished %s%s may take. Default `%s`. When it passes, the apply fails; the next apply resumes again.",
			op.Noun, updateAlso, def),
	}).(schema.SingleNestedBlock)
	b.Description = fmt.Sprintf("Time limits of the waits for the %s's batch.", op.Noun)
	return b
}

// ActionTimeoutAttribute is the time limit of a batch action's wait.
func ActionTimeoutAttribute(op Operation) actionschema.StringAttribute {
	return actionschema.StringAttribute{
		Optional: true,
		Description: fmt.Sprintf("How long to wait for the %s's batch, as a Go duration (`45m`, `2h`). Default `%s`. "+
			"When it passes, the action fails; the batch goes on running on the service, and invoking the action again starts a new one.", op.Noun, durationText(op.DefaultTimeout)),
		Validators: []validator.String{validators.Timeout()},
	}
}

// ActionTimeout reads a batch action's timeout argument, defaulting to the
// operation's.
func ActionTimeout(v types.String, op Operation, diags *diag.Diagnostics) time.Duration {
	if v.IsNull() || v.IsUnknown() {
		return op.DefaultTimeout
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil || d <= 0 { // the validator ran at plan time; a safety net
		diags.AddAttributeError(path.Root("timeout"), "Invalid timeout", fmt.Sprintf("%q is not a positive Go duration such as 45m or 2h.", v.ValueString()))
		return 0
	}
	return d
}

// durationText writes a whole duration the way a user writes it: 30m, 2h.
func durationText(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// WithAttributes adds the batch fragment to a resource's own attributes.
func WithAttributes(op Operation, own map[string]schema.Attribute) map[string]schema.Attribute {
	maps.Copy(own, attributes(op))
	return own
}
