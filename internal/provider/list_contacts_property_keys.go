package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// noteUnknownColumns notes the columns of a source file's book that named
// no attribute of the account when it was read (the book keeps them under
// their own name), at source_file.
func (r listReader) noteUnknownColumns(ctx context.Context, book *contactsync.Book, unknown unknownKeys) {
	for _, col := range book.UnknownColumns {
		unknown.note(col, "", path.Root("source_file"), contactsync.UnknownColumn(ctx, col, r.data.contacts.Attributes))
	}
}

// warnUnknownColumns warns of the columns of a book read at refresh, which
// the plan takes without reading the file again.
func (r listReader) warnUnknownColumns(ctx context.Context, book *contactsync.Book, diags *diag.Diagnostics) {
	unknown := unknownKeys{}
	r.noteUnknownColumns(ctx, book, unknown)
	unknown.warnNotYet(diags)
}

// desiredAtApply is desiredOf for an apply, before its first write: a key
// or column that named no attribute of the account when the input was
// read is confirmed against the attributes read again
// (contactsync.Attributes.Confirm), so that one made earlier in this
// apply counts, and the input is then read again under the attributes'
// names (a source file's book with such columns is not kept by the run's
// cache). A key that still names none is refused, and nothing is written.
func (r listReader) desiredAtApply(ctx context.Context, m listContactsModel, prior types.Map) (*contactsync.Book, diag.Diagnostics) {
	book, unknown, diags := r.readInput(ctx, m, prior)
	if len(unknown) == 0 || diags.HasError() {
		return book, diags
	}
	missing, err := r.data.contacts.Attributes.Confirm(ctx, unknown.keys())
	if err != nil {
		diags.AddAttributeError(path.Root(inputAttribute(m)), "Unable to read the account's contact attributes",
			fmt.Sprintf("The apply checks the input's property keys against the account's attributes before its first write: %s\n\nNothing was written; apply again.", describeAPIError(err)))
		return nil, diags
	}
	if len(missing) > 0 {
		refused := unknownKeys{}
		for _, k := range missing {
			refused[k] = unknown[k]
		}
		refused.refuse(&diags)
		return nil, diags
	}
	book, unknown, diags = r.readInput(ctx, m, prior)
	unknown.refuse(&diags) // none: Confirm found every one
	return book, diags
}

// inputAttribute is the attribute that holds m's input.
func inputAttribute(m listContactsModel) string {
	if m.isFile() {
		return "source_file"
	}
	return "contacts"
}
