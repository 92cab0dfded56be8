package provider

import (
	"context"
	"errors"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// How an rms_list_import brought in by terraform import (or an import
// block) adopts its configuration. ImportState knows only the ids, so the
// first plan afterwards finds the file, its hash, triggers and (where the
// service does not list imports) the settings null in state. That plan must
// update in place, never replace: replacing would upload the file again,
// which is what importing an existing import is meant to avoid.

// importedState reports whether the prior state came from terraform import
// and has not been applied with a configuration since. content_sha256 marks
// it: every import this provider ran has the hash it planned, from the first
// state it saved (operation.StartListImport's Created step), while ImportState cannot
// know it. import_id cannot serve: ImportState sets it.
func importedState(ctx context.Context, get func(context.Context, path.Path, any) diag.Diagnostics, diags *diag.Diagnostics) bool {
	var sum types.String
	diags.Append(get(ctx, path.Root("content_sha256"), &sum)...)
	return sum.IsNull()
}

// isAdopting is importedState for a whole model.
func isAdopting(m listImportModel) bool { return m.ContentSHA256.IsNull() }

// fillFromImportListing fills the settings an imported state lacks from the
// list's imports listing, so that the state says what the service did and
// the plan shows the real difference (it still adopts the configuration's
// values). The listing is our convention, not the interface's: a service
// that answers not found or not supported has none, and the settings stay
// null until the apply adopts them. Any other failure only logs: the
// refresh does not need the listing.
func fillFromImportListing(ctx context.Context, c *client.Client, m *listImportModel) {
	if !m.Delimiter.IsNull() && !m.Encoding.IsNull() {
		return
	}
	listID, importID := m.ListID.ValueString(), m.ImportID.ValueString()
	imports, err := c.Imports.List(ctx, listID)
	if err != nil {
		fields := map[string]any{"list_id": listID, "import_id": importID, "error": err.Error()}
		if errors.Is(err, client.ErrNotFound) || errors.Is(err, client.ErrNotSupported) {
			tflog.Debug(ctx, "the service lists no imports; the imported list import adopts its settings from the configuration", fields)
		} else {
			tflog.Warn(ctx, "reading the list's imports failed; the imported list import adopts its settings from the configuration", fields)
		}
		return
	}
	for _, imp := range imports {
		if imp.ID.String() != importID {
			continue
		}
		if m.Delimiter.IsNull() {
			if d, ok := delimiterFromCode(imp.Delimiter); ok {
				m.Delimiter = types.StringValue(d)
			}
		}
		if m.Encoding.IsNull() && imp.Encoding != "" {
			m.Encoding = types.StringValue(imp.Encoding)
		}
		if m.IdentityColumn.IsNull() && imp.IdentityColumn != "" {
			m.IdentityColumn = types.StringValue(imp.IdentityColumn)
		}
		return
	}
	tflog.Info(ctx, "the list's imports do not show the imported import; its settings are adopted from the configuration", map[string]any{"list_id": listID, "import_id": importID})
}

// delimiterFromCode turns the decimal ASCII code the interface uses ("59")
// back into the character the delimiter attribute holds (";"). A service
// that echoes the character itself is taken at its word.
func delimiterFromCode(code string) (string, bool) {
	if n, err := strconv.Atoi(code); err == nil && n > 0 && n < 128 {
		return string(rune(n)), true
	}
	if _, err := client.DelimiterCode(code); err == nil {
		return code, true
	}
	return "", false
}
