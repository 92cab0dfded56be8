package provider

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/batchcore"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

// How rms_list_contacts writes: up to batch_threshold changed contacts by
// single calls, run side by side (at most contactsync.WriteConcurrency at once;
// the provider's max_requests_per_second caps them further); above it, by
// import batches for what an import can do, and single calls for the rest:
//
//   - ADD import: new contacts, and the non-empty values of changed ones
//     (an ADD import merges only non-empty cells, so it can neither remove
//     a value nor set a status);
//   - UNSUBSCRIBE import: contacts whose e-mail status goes UNSUBSCRIBED
//     (exclusive, or the configuration says so);
//   - single calls: removed values, mobile statuses, re-subscriptions, and
//     new contacts that must start UNSUBSCRIBED (an ADD import would
//     create them subscribed for a moment).
//
// After the batches, what an import cannot do goes by single calls. When
// every batch reported all its rows done, that is reckoned from the diff
// (contactsync.AfterImports) without a second listing of the list (a
// thousand pages at a million contacts). A batch that reports refused rows,
// or no count of them, and contacts an import created with a status the
// input sets (they start as the service starts a new contact) are not
// reckoned: the list is read again and whatever is still not as configured
// is written by single calls; the result is checked, not assumed.

// defaultBatchThreshold is batch_threshold's default.
const defaultBatchThreshold = 100

// contactWriter writes changes to one list.
type contactWriter struct {
	data     *providerData
	listID   string
	creating bool // Create: a batch wait cut short warns, the state is kept
	// destroying: a destroy's UNSUBSCRIBE import, after which nothing reads
	// the list back (warnFailedRows).
	destroying bool
	timeout    time.Duration
	// fileAttr is the argument an import file refused is reported on
	// (rms_list_contacts' contacts when empty).
	fileAttr path.Path
	// unconfirmed: a batch this writer waited for did not report every
	// row done (failed rows, or no count at all), so what the imports did
	// must be read back before the rest is written.
	unconfirmed bool
}

// writeSingles applies changes by single calls, side by side. It returns
// the ids whose change failed, and reports each failure (the first few in
// full).
func (w *contactWriter) writeSingles(ctx context.Context, changes []contactsync.Change, diags *diag.Diagnostics) map[string]bool {
	failures := w.data.contacts.WriteSingles(ctx, w.listID, changes)
	failed := make(map[string]bool, len(failures))
	errs := make([]string, 0, len(failures))
	for _, f := range failures {
		failed[f.ID] = true
		errs = append(errs, fmt.Sprintf("contact %q: %s", f.ID, describeAPIError(f.Err)))
	}
	if len(errs) > 0 {
		shown := errs[:min(len(errs), 5)]
		diags.AddError("Unable to write some contacts",
			fmt.Sprintf("%d of %d contact changes in list %s failed; the others were made, and the next plan shows what is left:\n\n%s",
				len(errs), len(changes), w.listID, strings.Join(shown, "\n\n")))
	}
	return failed
}

// runImport runs one import of the generated file and waits for its batch.
// started sees the batch id as soon as there is one, so the caller keeps it
// (private state) and a later apply resumes the wait. finished is false
// when the wait was cut short or failed.
func (w *contactWriter) runImport(ctx context.Context, typ string, write func(*os.File) error, started func(string), diags *diag.Diagnostics) (finished bool) {
	f, err := os.CreateTemp("", "rms-list-contacts-*.csv")
	if err != nil {
		diags.AddError("Unable to write the import file", err.Error())
		return false
	}
	defer func() { _ = os.Remove(f.Name()); _ = f.Close() }()
	if err := write(f); err != nil {
		diags.AddError("Unable to write the import file", err.Error())
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		diags.AddError("Unable to read back the import file", err.Error())
		return false
	}
	batchID, ok := operation.StartListImport(ctx, w.data.client, w.data.contacts.Listings, operation.ListImportRun{
		ListID: w.listID, Type: typ, Delimiter: operation.ImportDefaultDelimiter, Encoding: operation.ImportDefaultEncoding,
		Body: f, FileAttr: w.importFileAttr(),
		RetryNote: "The next apply reads the list again and writes what is still missing; nothing is created twice.",
	}, diags)
	if !ok || batchID == "" {
		return false
	}
	started(batchID)
	return w.wait(ctx, batchID, diags)
}

// importFileAttr is the argument an import file refused is reported on.
func (w *contactWriter) importFileAttr() path.Path {
	if w.fileAttr.Equal(path.Empty()) {
		return path.Root("contacts")
	}
	return w.fileAttr
}

// wait waits for one import batch of this resource.
func (w *contactWriter) wait(ctx context.Context, batchID string, diags *diag.Diagnostics) bool {
	b, ok := batchcore.WaitFor(ctx, w.data.batches(), contactsImportOperation.Wait(batchID, w.timeout, true), diags)
	if ok && b != nil {
		w.warnFailedRows(b, diags)
	}
	if b == nil {
		w.unconfirmed = true
	} else if n, shown := b.FailedCount(); !shown || n > 0 {
		w.unconfirmed = true
	}
	return ok
}

// warnFailedRows reports the rows of a finished import batch that the
// service could not handle. Unlike rms_list_import (max_failed_rows), it
// is a warning, never an error: the provider wrote the file itself, so a
// refused row is no mistake of the user's file to correct; an apply reads
// the list back after its batches and writes whatever is still not as
// configured by single calls, so a refused row is repaired there, and a
// contact that cannot be written that way either is an error of its own
// ("Unable to write some contacts"); and an error here would taint a new
// resource, whose replacement would import everything again for nothing.
// A destroy reads nothing back: its warning says the contacts of those rows
// may still be subscribed. A batch that does not report failed rows says
// nothing.
func (w *contactWriter) warnFailedRows(b *client.Batch, diags *diag.Diagnostics) {
	if n, shown := b.FailedCount(); !shown || n == 0 {
		return
	}
	then := "This apply read the list back after its imports and wrote, by single calls, whatever was still not as configured: unless an error names a contact that could not be written either, the contacts of these rows are as configured."
	if w.destroying {
		then = "Destroy does not read the list back: the contacts of these rows may still be subscribed to e-mail, and they are no longer managed by Terraform. Unsubscribe them with rms_contact or on the service."
	}
	diags.AddWarning(fmt.Sprintf("Contacts import of list %s: rows refused", w.listID), describeFailedRows(b, "the import file the provider wrote")+"\n\n"+then)
}

// resume waits for a batch an earlier apply stopped waiting for. A batch
// that failed on the service is reported in a warning and left behind
// (true): the apply reads the list next and writes what the batch did not
// do, so one apply converges. false when the wait was cut short again.
func (w *contactWriter) resume(ctx context.Context, batchID string, diags *diag.Diagnostics) bool {
	var d diag.Diagnostics
	b, ok := batchcore.WaitFor(ctx, w.data.batches(), contactsImportOperation.Wait(batchID, w.timeout, true), &d)
	if ok {
		if b != nil {
			w.warnFailedRows(b, diags)
		}
		return true
	}
	if b != nil && b.Err() != nil {
		diags.AddWarning("Contacts import "+batchID+" failed",
			fmt.Sprintf("An earlier apply started import batch %s for list %s and stopped waiting for it; the service has since failed it: %s. "+
				"This apply read the list and wrote what the batch did not do.", batchID, w.listID, b.Err()))
		return true
	}
	diags.Append(d...)
	return false
}

// readBackFailed reports a failed read of the list after its import
// batches finished. During create it is a warning, as a batch wait cut
// short is: the batches did their work, and an error would taint the
// resource, whose replacement would unsubscribe the list's contacts and
// import them again. The next plan reads the list and shows what is left.
func (w *contactWriter) readBackFailed(diags *diag.Diagnostics, err error) {
	summary := "Unable to read the contacts of list " + w.listID + " after its imports"
	if !w.creating || client.IsNotFound(err) {
		addAPIError(diags, summary, err, nil)
		return
	}
	diags.AddWarning(summary, describeAPIError(err)+
		"\n\nThe import batches have finished; nothing is imported again. Once the service can be reached again, the next plan reads the list and shows what is left to write, and the next apply writes it.")
}

// contactsImportOperation is an import batch of rms_list_contacts, for the
// batch core's wait. Every end of a wait but the batch's own failure warns
// (creating is always true), in update too: the batch id stays in private
// state, the next plan reads the list and shows what is left, and the next
// apply resumes the wait before it writes anything, so nothing is lost and
// nothing imported twice.
var contactsImportOperation = batchcore.Operation{
	What: "Contacts import", Noun: "import", BatchType: client.BatchTypeImport,
	PendingNote: "The list's contacts are as far as the batch got; the next plan shows what is left.",
	FailedNote:  "The next apply reads the list again and writes what is still missing.",
}
