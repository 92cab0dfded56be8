package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// operationContext starts a long-running operation's create or update once
// its model has been read into diags: it checks that nothing failed and that
// the provider has a client, then bounds ctx by the configured timeout
// (timeout is the model's Timeouts.Create or Timeouts.Update), which it
// returns too. The caller defers cancel at once and goes on only when ok.
func operationContext(ctx context.Context, d *providerData, timeout func(context.Context, time.Duration) (time.Duration, diag.Diagnostics), def time.Duration, diags *diag.Diagnostics) (context.Context, context.CancelFunc, time.Duration, bool) {
	if diags.HasError() || !requireClient(d, diags) {
		return ctx, func() {}, 0, false
	}
	limit, more := timeout(ctx, def)
	diags.Append(more...)
	if diags.HasError() {
		return ctx, func() {}, 0, false
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	return ctx, cancel, limit, true
}
