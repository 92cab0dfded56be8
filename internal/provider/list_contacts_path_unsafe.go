package provider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// Contacts whose originalId a URL path cannot carry ("." and "..",
// client.PathSafeID) have no single-contact call; rms_list_contacts writes
// them through the calls that carry the id in a body, whatever
// batch_threshold says (contactsync/path_unsafe.go): the create by POST, a
// property change by an ADD import row, an e-mail unsubscription by an
// UNSUBSCRIBE import row. It reads them only from the listing. What none of
// those calls can do is refused at plan (refusePathUnsafe); exclusive
// leaves their mobile channel as it is and says so (warnMobileOutOfReach).

// writeChanges writes changes by single calls, except those of contacts a
// path cannot carry, which go by import rows first. It returns the ids
// whose change failed (or could not be written at all), and false when an
// import's wait was cut short or failed (its batch id went to started, so
// the next apply resumes it). A destroy reports what it cannot write in a
// warning, so that it never stays stuck on a contact nothing can write.
func (w *contactWriter) writeChanges(ctx context.Context, changes []contactsync.Change, started func(string), diags *diag.Diagnostics) (failed map[string]bool, finished bool) {
	singles, body, unwritable := contactsync.SplitPathUnsafe(changes)
	failed = map[string]bool{}
	if len(unwritable) > 0 {
		w.reportUnwritable(unwritable, diags)
		for _, u := range unwritable {
			failed[u.ID] = true
		}
	}
	if len(body.Add) > 0 && !w.runImport(ctx, "ADD", func(f *os.File) error { return contactsync.WriteAddImport(f, slices.Values(body.Add)) }, started, diags) {
		return failed, false
	}
	if len(body.Unsubscribe) > 0 && !w.runImport(ctx, "UNSUBSCRIBE", func(f *os.File) error { return contactsync.WriteUnsubscribeImport(f, body.Unsubscribe) }, started, diags) {
		return failed, false
	}
	for id := range w.writeSingles(ctx, singles, diags) {
		failed[id] = true
	}
	return failed, true
}

// reportUnwritable says what could not be written for contacts a path
// cannot carry: an error in an apply (the plan refuses it first, so only a
// plan made without a listing gets here), a warning in a destroy.
func (w *contactWriter) reportUnwritable(unwritable []contactsync.Unwritable, diags *diag.Diagnostics) {
	summary, detail := unwritableText(w.listID, unwritable)
	if w.destroying {
		diags.AddWarning(summary, detail+"\n\nDestroy wrote everything else; these contacts are left as they are.")
		return
	}
	diags.AddError(summary, detail+"\n\nNothing was written for these contacts; the others were written.")
}

// unwritableText names the contacts and what no call can write for them.
func unwritableText(listID string, unwritable []contactsync.Unwritable) (summary, detail string) {
	lines := make([]string, 0, min(len(unwritable), contactsync.MaxNamedInWarning))
	for _, u := range unwritable[:min(len(unwritable), contactsync.MaxNamedInWarning)] {
		lines = append(lines, "  - "+u.String())
	}
	if n := len(unwritable) - len(lines); n > 0 {
		lines = append(lines, fmt.Sprintf("  - and %d more", n))
	}
	return "Contact ids a URL path cannot carry",
		fmt.Sprintf("The originalIds below are dot segments (\".\" or \"..\"): in a URL path a server resolves them as path navigation (RFC 3986), so the service's calls that address one contact by its id in the path cannot reach them. "+
			"Contacts of list %s with such ids are created (the create carries the id in its body), listed, given property values by ADD import rows and unsubscribed from e-mail by UNSUBSCRIBE import rows; nothing else can be written for them:\n\n%s\n\n"+
			"Set the input for these contacts to what the service holds (or leave the status or value out), or change them on the service.",
			listID, strings.Join(lines, "\n"))
}

// refusePathUnsafe refuses, at plan, changes of contacts a path cannot
// carry that no call can write, naming each contact and why.
func refusePathUnsafe(plan listContactsModel, diff contactsync.Diff, diags *diag.Diagnostics) {
	// A create carries its id in its body, so only the other changes can
	// be unwritable (a first apply of a million rows is not copied here).
	var others []contactsync.Change
	for c := range diff.All() {
		if !c.Create {
			others = append(others, c)
		}
	}
	_, _, unwritable := contactsync.SplitPathUnsafe(others)
	if len(unwritable) == 0 {
		return
	}
	at := path.Root("contacts")
	if plan.isFile() {
		at = path.Root("source_file")
	}
	summary, detail := unwritableText(plan.ListID.ValueString(), unwritable)
	diags.AddAttributeError(at, summary, detail+"\n\nNothing is written until the input changes.")
}

// warnMobileOutOfReach names, for exclusive, the contacts the list does
// not name whose mobile channel stays subscribed because a path cannot
// carry their id.
func warnMobileOutOfReach(plan listContactsModel, desired *contactsync.Book, service *contactsync.ServiceList, diags *diag.Diagnostics) {
	if !plan.Exclusive.ValueBool() {
		return
	}
	ids := contactsync.MobileOutOfReach(desired, service)
	if len(ids) == 0 {
		return
	}
	verb := "are"
	if len(ids) == 1 {
		verb = "is"
	}
	named := firstNames(ids[:min(len(ids), contactsync.MaxNamedInWarning)], len(ids))
	diags.AddWarning("Mobile channel out of reach",
		fmt.Sprintf("exclusive unsubscribes every contact of list %s the input does not name, but %s %s subscribed to mobile: an UNSUBSCRIBE import unsubscribes their e-mail, and only the subscription-status call, which addresses a contact by its id in the URL path, sets mobile. "+
			"Their ids are dot segments (\".\" or \"..\"), which a server resolves as path navigation, so their mobile channel stays as it is. Unsubscribe it on the service if it must go.",
			plan.ListID.ValueString(), named, verb))
}
