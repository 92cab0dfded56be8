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

// newOptOuts is diff with only the opt-outs kept that no earlier apply
// recorded, for the plan's warning, and the number of those it leaves out.
// diff itself is not changed (the counts of the plan hold every opt-out).
func newOptOuts(diff contactsync.Diff, recorded map[string][2]bool, now contactsync.Record) (contactsync.Diff, int) {
	if len(recorded) == 0 || len(diff.OptedOut) == 0 {
		return diff, 0
	}
	fresh := make([]string, 0, len(diff.OptedOut))
	for _, id := range diff.OptedOut {
		if !optOutRecorded(recorded[id], now.OptedOut[id]) {
			fresh = append(fresh, id)
		}
	}
	n := len(diff.OptedOut) - len(fresh)
	diff.OptedOut = fresh
	return diff, n
}

// optOutRecorded reports whether the record as saved (was) holds the
// opt-out the record now holds on every channel, and holds one at all.
func optOutRecorded(was, now [2]bool) bool {
	if was == ([2]bool{}) {
		return false
	}
	return (!now[0] || was[0]) && (!now[1] || was[1])
}

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
	shown, n := newOptOuts(diff, recorded, now)
	title, msg = planSummary(listID, shown, exclusive)
	if msg == "" {
		if n > 0 {
			tflog.Info(ctx, "list contacts: opt-outs kept, recorded by earlier applies", map[string]any{"list_id": listID, "count": n})
		}
		return "", ""
	}
	return title, msg + recordedOptOutsLine(n)
}

// warnHonoured is the apply's warning of the opt-outs it kept: it names
// only those the plan could not name, because the record the plan worked
// from (seen: its refresh's, as the planned private state carries it) did
// not hold them yet (opted out since the plan, or a plan whose refresh was
// skipped); the plan named or counted the others, and the reviewer has
// read them. now is the record after the apply's own listing.
func warnHonoured(diags *diag.Diagnostics, listID string, diff contactsync.Diff, exclusive bool, seen map[string][2]bool, now contactsync.Record) {
	fresh, _ := newOptOuts(diff, seen, now)
	if len(fresh.OptedOut) == 0 {
		return
	}
	diags.AddWarning("Opt-outs honoured", "Contacts of list "+listID+": "+optOutNotice(fresh.OptedOut, exclusive, "were not re-subscribed")+".")
}
