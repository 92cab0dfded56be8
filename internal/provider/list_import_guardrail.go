package provider

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

// The guardrail on mass unsubscription for imports, shared by the
// rms_list_import resource and the rms_run_list_import action: an
// UNSUBSCRIBE import unsubscribes the file's contacts the list holds
// subscribed to e-mail (the only channel it changes); a REPLACE import
// removes, for good, every contact of the list the file does not name.
// Counting needs the file's identity column and one listing of the list.

// guardListImport counts what the import a and its limits ask for will
// unsubscribe or remove, warns with the count and share, and fails above
// the limits. Where it cannot count (a value known only during the apply,
// a file that is not there yet) it warns: the apply's own plan, which sees
// every value, counts before anything is uploaded. It reports whether the
// import may run.
func guardListImport(ctx context.Context, data *providerData, a listImportArgs, scope string, diags *diag.Diagnostics) bool {
	return checkImportCount(data, a, countListImport(ctx, data, a, diags), scope, diags)
}

// countListImport counts what the import a will unsubscribe or remove
// (countImport), nil where there is nothing to count (an ADD import, a list
// that does not exist) or where it cannot count, which it warns about. The
// plan of rms_list_import carries the same count in planned_changes.
func countListImport(ctx context.Context, data *providerData, a listImportArgs, diags *diag.Diagnostics) *unsubscribeCount {
	if a.Type.IsUnknown() {
		warnUncounted(diags, "This import", "its type is known only during the apply")
		return nil
	}
	typ := a.Type.ValueString()
	if typ != "UNSUBSCRIBE" && typ != "REPLACE" {
		return nil
	}
	switch {
	case a.ListID.IsUnknown() || a.File.IsUnknown() || a.Content.IsUnknown() || a.Delimiter.IsUnknown() ||
		a.Encoding.IsUnknown() || a.IdentityColumn.IsUnknown():
		warnUncounted(diags, "The "+typ+" import", "the list id, the file or another of its arguments is known only during the apply")
		return nil
	case data == nil || data.client == nil:
		warnUncounted(diags, "The "+typ+" import", "the provider configuration is known only during the apply")
		return nil
	}
	listID := a.ListID.ValueString()
	ids, err := importIdentities(a)
	if err != nil {
		// The upload reports a file it cannot read; nothing to count here.
		warnUncounted(diags, "The "+typ+" import into list "+listID, err.Error())
		return nil
	}
	service, err := contactsync.ListStatuses(ctx, data.client, listID)
	if err != nil {
		if !client.IsNotFound(err) { // the import reports the missing list
			warnUncounted(diags, "The "+typ+" import into list "+listID, "reading the list failed: "+describeAPIError(err))
		}
		return nil
	}
	c := countImport(listID, typ, ids, service)
	return &c
}

// checkImportCount fails when c (nil: not counted) is above the limits of
// import a; it reports whether the import may run.
func checkImportCount(data *providerData, a listImportArgs, c *unsubscribeCount, scope string, diags *diag.Diagnostics) bool {
	if c == nil {
		return true
	}
	if !a.limitsKnown() {
		warnUncounted(diags, "The "+a.Type.ValueString()+" import", "the list id, the file or another of its arguments is known only during the apply")
		return true
	}
	return checkUnsubscribeLimit(diags, *c, resolveUnsubscribeLimits(a.unsubscribeLimitArgs, data.unsubscribeLimits, scope), guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
}

// countImport counts what an import of the contacts ids does to list
// listID holding service: an UNSUBSCRIBE import, out of the contacts
// subscribed to e-mail (the only channel it changes); a REPLACE import,
// out of all the list's contacts (it removes them for good, whatever their
// status).
func countImport(listID, typ string, ids map[string]bool, service *contactsync.ServiceList) unsubscribeCount {
	what := "the " + typ + " import"
	n := 0
	if typ == "REPLACE" {
		for id := range service.All() {
			if !ids[id] {
				n++
			}
		}
		return contactsync.RemovalCount(listID, what, n, service.Len())
	}
	for id := range ids {
		if s, ok := service.Get(id); ok && s.Email != client.StatusUnsubscribed {
			n++
		}
	}
	return contactsync.ChannelCount(listID, what, service, n, -1)
}

// importIdentities reads the identity column of the import's file or
// content, as the service reads it: a row with another number of fields
// than the header, or an empty identity, is a bad row the service skips.
func importIdentities(a listImportArgs) (map[string]bool, error) {
	opts := contactsync.FileOptions{Delimiter: a.Delimiter.ValueString(), Encoding: a.Encoding.ValueString(), IdentityColumn: a.IdentityColumn.ValueString()}
	if opts.Delimiter == "" {
		opts.Delimiter = operation.ImportDefaultDelimiter
	}
	if opts.Encoding == "" {
		opts.Encoding = operation.ImportDefaultEncoding
	}
	if a.File.IsNull() {
		return contactsync.ReadIdentities(strings.NewReader(a.Content.ValueString()), opts)
	}
	f, err := os.Open(a.File.ValueString())
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no file at %q yet", a.File.ValueString())
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", a.File.ValueString(), err)
	}
	defer func() { _ = f.Close() }() // read-only
	return contactsync.ReadIdentities(bufio.NewReader(f), opts)
}
