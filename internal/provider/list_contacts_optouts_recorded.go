package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// A plan names a kept opt-out until an apply has recorded it, then only
// counts it: a warning that repeats the same names on every plan teaches
// reviewers to skip warnings. The record is the one the consent rule keeps
// already (Record.OptedOut, list_contacts_seen_optouts.go): the refresh
// notes the opt-outs it sees in private state, which `terraform plan`
// discards and `terraform apply` saves (with or without a change to the
// resource). So an opt-out is recorded once the record as saved, before
// this run's refresh (contactsync.Snapshot.RecordedOptOuts), holds it on
// each channel it is now kept on.

// recordedOptOutsLine is the one line a plan's warning gives the opt-outs
// kept that earlier applies recorded: a count, no names.
func recordedOptOutsLine(n int) string {
	if n == 0 {
		return ""
	}
	noun := "opt-outs"
	if n == 1 {
		noun = "opt-out"
	}
	return fmt.Sprintf("\n%d %s kept, recorded by earlier applies (not named again; they stay unsubscribed).", n, noun)
}

// planWarning is the plan's warning for list listID: planSummary of the
// opt-outs no earlier apply recorded, with the others counted in one line.
// A plan whose only news would be recorded opt-outs gives no warning, so
// that a warning on a plan without changes always says something new; the
// count goes to the log.
func planWarning(ctx context.Context, listID string, diff contactsync.Diff, exclusive bool, recorded map[string][2]bool, now contactsync.Record) (title, msg string) {
	shown, n := contactsync.NewOptOuts(diff, recorded, now)
	title, msg = planSummary(listID, shown, exclusive)
	if msg == "" {
		if n > 0 {
			tflog.Info(ctx, "list contacts: opt-outs kept, recorded by earlier applies", map[string]any{"list_id": listID, "count": n})
		}
		return "", ""
	}
	return title, msg + recordedOptOutsLine(n)
}

// warnHonoured is the apply's warning of the opt-outs it kept that the
// plan could not name (contactsync.ApplyOutcome.Honoured): the plan named
// or counted the others, and the reviewer has read them.
func warnHonoured(diags *diag.Diagnostics, listID string, honoured []string, exclusive bool) {
	if len(honoured) == 0 {
		return
	}
	diags.AddWarning("Opt-outs honoured", "Contacts of list "+listID+": "+optOutNotice(honoured, exclusive, "were not re-subscribed")+".")
}
