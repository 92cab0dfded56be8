package provider

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

// The suppression list in an import (rms_list_import and the
// rms_run_list_import action): an ADD or REPLACE import must not subscribe
// a recipient the account's suppression list holds, and the service's
// import has no status column. Such rows are held back from the upload
// and written by single calls with their status (operation.WriteHeldRows):
// an ADD before it uploads, a REPLACE once its batch has finished (the
// batch removes every contact the uploaded file does not name). A REPLACE
// first copies the opt-outs of the contacts it removes into the
// suppression list. The plan counts the held rows and names the first.

// heldShown bounds the held rows a plan names.
const heldShown = 5

// importSuppression is the suppression list an import answers to and the
// split of its file; nil when there is none, or nothing to hold back.
type importSuppression struct {
	sup   *contactsync.Suppression
	split *contactsync.ImportSplit
}

// importSuppressionFor is the suppression list of import a, nil when it
// has none or is no ADD or REPLACE import.
func importSuppressionFor(data *providerData, a listImportArgs) *contactsync.Suppression {
	if typ := a.Type.ValueString(); typ != "ADD" && typ != "REPLACE" {
		return nil
	}
	if data == nil || data.client == nil || data.contacts == nil {
		return nil
	}
	sup, _ := data.suppressionFor(a.SuppressionListID, a.ListID.ValueString())
	return sup
}

// splitImportFile reads the import's file (or content) r and finds the rows
// sup holds.
func splitImportFile(ctx context.Context, data *providerData, a listImportArgs, sup *contactsync.Suppression, r io.Reader) (*contactsync.ImportSplit, error) {
	if err := sup.Load(ctx); err != nil {
		return nil, err
	}
	return contactsync.SplitImport(ctx, r, importFileOptions(a), data.contacts.Attributes, func(id, email string) (contactsync.Channels, error) {
		return sup.Suppressed(ctx, id, email)
	})
}

// importFileOptions is how the import's file is read, defaults filled.
func importFileOptions(a listImportArgs) contactsync.FileOptions {
	opts := contactsync.FileOptions{Path: a.File.ValueString(), Delimiter: a.Delimiter.ValueString(), Encoding: a.Encoding.ValueString(), IdentityColumn: a.IdentityColumn.ValueString()}
	if opts.Delimiter == "" {
		opts.Delimiter = operation.ImportDefaultDelimiter
	}
	if opts.Encoding == "" {
		opts.Encoding = operation.ImportDefaultEncoding
	}
	return opts
}

// planImportSuppression warns, at plan, how many rows of the import's file
// the suppression list holds, naming the first, and for a REPLACE import
// how many opt-outs of the contacts it removes the apply copies into the
// suppression list first. It returns that number: 0 for an import without
// a suppression list or that removes nobody, -1 where it cannot tell (a
// value known only during the apply, a file not there yet, a list it
// cannot read), where it says nothing: the apply holds the rows back and
// copies the opt-outs all the same.
func planImportSuppression(ctx context.Context, data *providerData, a listImportArgs, diags *diag.Diagnostics) (toCopy int) {
	for _, v := range []interface{ IsUnknown() bool }{a.Type, a.ListID, a.SuppressionListID, a.File, a.Content, a.Delimiter, a.Encoding, a.IdentityColumn} {
		if v.IsUnknown() {
			return -1
		}
	}
	if data == nil || data.client == nil || data.contacts == nil {
		return -1
	}
	sup := importSuppressionFor(data, a)
	if sup == nil {
		return 0
	}
	var r io.Reader = strings.NewReader(a.Content.ValueString())
	if !a.File.IsNull() {
		f, err := os.Open(a.File.ValueString())
		if err != nil {
			return -1 // the file checks report it
		}
		defer func() { _ = f.Close() }() // read-only
		r = bufio.NewReaderSize(f, 64<<10)
	}
	split, err := splitImportFile(ctx, data, a, sup, r)
	if client.IsNotFound(err) {
		diags.Append(suppressionListNotFound(a.SuppressionListID, data))
		return -1
	}
	if err != nil {
		tflog.Warn(ctx, "cannot count the suppressed rows of the import at plan", map[string]any{"error": err.Error()})
		return -1
	}
	toCopy = 0
	if a.Type.ValueString() == "REPLACE" {
		toCopy = planLeavingOptOuts(ctx, data, a, sup, diags)
	}
	if len(split.Held) == 0 {
		return toCopy
	}
	diags.AddAttributeWarning(path.Root(attrSuppressionListID), "Suppressed contacts stay unsubscribed",
		fmt.Sprintf("%d suppressed account-wide stay unsubscribed: %s. "+
			"The suppression list %s holds them (by original id or e-mail address), so these rows are held back from the %s import's upload and written by single calls, unsubscribed on the channels they opted out of; the other values of each row are written as the import would. "+
			"To subscribe one anyway (only with the recipient's consent), remove it from the suppression list first.",
			len(split.Held), describeHeldRows(split.Held), sup.ListID(), a.Type.ValueString()))
	return toCopy
}

// leavingOptOutsToCopy are the opt-outs of the contacts a REPLACE import
// removes (those its file does not name) that the suppression list sup
// does not hold yet, on the channels it lacks: what the plan counts and
// names, and what the apply records, decided once (Suppression.Pending is
// what Suppression.Record writes).
func leavingOptOutsToCopy(ctx context.Context, data *providerData, a listImportArgs, sup *contactsync.Suppression) ([]contactsync.OptOut, error) {
	ids, err := importIdentities(a)
	if err != nil {
		return nil, err
	}
	outs, err := data.contacts.LeavingOptOuts(ctx, a.ListID.ValueString(), func(id string) bool { return !ids[id] })
	if err != nil {
		return nil, err
	}
	return sup.Pending(ctx, outs)
}

// planLeavingOptOuts warns, at plan, how many opt-outs of the contacts a
// REPLACE import removes the apply copies into the suppression list first
// (those it does not hold yet), naming the first, and returns that number
// (-1 when it cannot tell).
func planLeavingOptOuts(ctx context.Context, data *providerData, a listImportArgs, sup *contactsync.Suppression, diags *diag.Diagnostics) int {
	listID := a.ListID.ValueString()
	outs, err := leavingOptOutsToCopy(ctx, data, a, sup)
	if err != nil {
		return -1 // the guardrail reports a list it cannot read
	}
	n := len(outs)
	if n == 0 {
		return 0
	}
	names := make([]string, 0, heldShown+1)
	for _, o := range outs[:min(n, heldShown)] {
		names = append(names, fmt.Sprintf("%q (%s)", o.OriginalID, o.Channels))
	}
	if n > heldShown {
		names = append(names, fmt.Sprintf("and %d more", n-heldShown))
	}
	diags.AddAttributeWarning(path.Root(attrSuppressionListID), "Opt-outs to copy into the suppression list",
		fmt.Sprintf("The REPLACE import into list %s removes contacts its file does not name, %d of them unsubscribed on channels the suppression list %s does not hold yet: %s. "+
			"The apply copies those opt-outs into the suppression list before it uploads anything, so that they outlive this list's copy (planned_changes.opt_outs_copied counts them). "+
			"An import cannot tell a recipient's own opt-out from an unsubscription Terraform made (an rms_list_contacts' exclusive, an UNSUBSCRIBED in its input, its on_destroy), so it copies every one of them; "+
			"if some are Terraform's own, take those contacts out of the rms_list_contacts that manages them instead, whose consent record tells them apart.",
			listID, n, sup.ListID(), strings.Join(names, ", ")))
	return n
}

// describeHeldRows names the first held rows: `"c2" (row 3, e-mail)`.
func describeHeldRows(held []contactsync.HeldRow) string {
	names := make([]string, 0, heldShown+1)
	for _, h := range held[:min(len(held), heldShown)] {
		names = append(names, fmt.Sprintf("%q (row %d, %s)", h.OriginalID, h.Row, h.Channels))
	}
	if len(held) > heldShown {
		names = append(names, fmt.Sprintf("and %d more", len(held)-heldShown))
	}
	return strings.Join(names, ", ")
}

// prepareImportSuppression runs before an import is created: a REPLACE
// copies the opt-outs of the contacts it removes into the suppression
// list; an ADD writes its held rows. It returns what to upload (body
// itself when nothing is held) and a function that removes what it made.
func prepareImportSuppression(ctx context.Context, data *providerData, a listImportArgs, body io.ReadSeeker, diags *diag.Diagnostics) (upload io.ReadSeeker, s *importSuppression, done func(), ok bool) {
	sup := importSuppressionFor(data, a)
	if sup == nil {
		return body, nil, func() {}, true
	}
	listID, typ := a.ListID.ValueString(), a.Type.ValueString()
	attr := path.Root(attrSuppressionListID)
	split, err := splitImportFile(ctx, data, a, sup, body)
	if err != nil {
		diags.AddAttributeError(attr, "Unable to read the suppression list",
			fmt.Sprintf("The %s import into list %s holds back the recipients the suppression list %s holds, and that needs the list and the file: %s\n\nNothing was imported.", typ, listID, sup.ListID(), describeAPIError(err)))
		return nil, nil, nil, false
	}
	if typ == "REPLACE" && !copyLeavingOptOuts(ctx, data, a, sup, diags) {
		return nil, nil, nil, false
	}
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		diags.AddAttributeError(importFileAttr(a.File), "Unable to read the import file", err.Error())
		return nil, nil, nil, false
	}
	s = &importSuppression{sup: sup, split: split}
	if len(split.Held) == 0 {
		return body, s, func() {}, true
	}
	if typ == "ADD" && !operation.WriteHeldRows(ctx, data.client, data.contacts.Listings, listID, split.Held, diags) {
		return nil, nil, nil, false
	}
	kept, closeKept, err := operation.KeptBody(split, body, importFileOptions(a))
	if err != nil {
		diags.AddAttributeError(importFileAttr(a.File), "Unable to read the import file", err.Error())
		return nil, nil, nil, false
	}
	tflog.Info(ctx, "held back suppressed rows from the import's upload", map[string]any{"list_id": listID, "rows": len(split.Held)})
	return kept, s, closeKept, true
}

// copyLeavingOptOuts copies into the suppression list the opt-outs of the
// contacts a REPLACE import removes (those its file does not name) that it
// does not hold yet, before the import runs: what the plan counted
// (leavingOptOutsToCopy).
func copyLeavingOptOuts(ctx context.Context, data *providerData, a listImportArgs, sup *contactsync.Suppression, diags *diag.Diagnostics) bool {
	listID := a.ListID.ValueString()
	outs, err := leavingOptOutsToCopy(ctx, data, a, sup)
	if err == nil {
		var n int
		n, err = sup.Record(ctx, outs)
		if n > 0 {
			tflog.Info(ctx, "copied the opt-outs a REPLACE import removes into the suppression list", map[string]any{"list_id": listID, "recorded": n})
		}
	}
	if err != nil && !client.IsNotFound(err) {
		diags.AddAttributeError(path.Root(attrSuppressionListID), "Unable to copy opt-outs into the suppression list",
			fmt.Sprintf("The REPLACE import into list %s removes the contacts its file does not name, so their opt-outs are first copied into the suppression list %s. That failed: %s\n\nNothing was imported; apply again.",
				listID, sup.ListID(), describeAPIError(err)))
		return false
	}
	return true
}

// finishImportSuppression runs once the import's batch has finished: the
// rows the batch refused are numbered in the user's file, and a REPLACE
// writes its held rows. It reports false with an error when a write failed.
func finishImportSuppression(ctx context.Context, data *providerData, a listImportArgs, s *importSuppression, b *client.Batch, diags *diag.Diagnostics) bool {
	if s == nil || s.split == nil {
		return true
	}
	operation.MapFailedRows(b, s.split)
	if a.Type.ValueString() != "REPLACE" || len(s.split.Held) == 0 || (b != nil && b.Error != "") {
		return true
	}
	return operation.WriteHeldRows(ctx, data.client, data.contacts.Listings, a.ListID.ValueString(), s.split.Held, diags)
}

// resumedImportSuppression is the split of an import whose wait an
// earlier apply cut short, read again from its file (unchanged since: a
// changed file runs a new import), so that the resumed apply numbers
// refused rows in the user's file and a REPLACE writes its held rows once
// the batch has finished.
func resumedImportSuppression(ctx context.Context, data *providerData, a listImportArgs, diags *diag.Diagnostics) *importSuppression {
	sup := importSuppressionFor(data, a)
	if sup == nil {
		return nil
	}
	body, closeBody, err := openImportBody(a.File, a.Content, "")
	if err == nil {
		defer closeBody()
		var split *contactsync.ImportSplit
		if split, err = splitImportFile(ctx, data, a, sup, body); err == nil {
			return &importSuppression{sup: sup, split: split}
		}
	}
	if errors.Is(err, os.ErrNotExist) {
		err = fmt.Errorf("the file is gone: %w", err)
	}
	diags.AddAttributeWarning(path.Root(attrSuppressionListID), "Suppressed rows not written",
		fmt.Sprintf("The resumed %s import into list %s could not read its file or the suppression list %s again: %s. Refused rows are numbered in the uploaded file, which lacks the held-back rows, and a REPLACE's held-back rows are not written. Run the import again (change triggers) once it can.",
			a.Type.ValueString(), a.ListID.ValueString(), sup.ListID(), describeAPIError(err)))
	return nil
}
