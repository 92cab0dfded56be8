package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// An import file rewritten between `terraform plan -out` and `terraform
// apply PLANFILE` must be refused before anything is written, in the
// provider's words where Terraform lets the provider see it. Inside the
// apply Terraform plans a new import again and compares content_sha256 with
// the saved plan before Create runs; a create has no prior state, so
// nothing of the saved plan reaches that second plan, and Terraform's own
// "Provider produced inconsistent final plan" refuses it (nothing is
// created either). A replacement (the file changed, then changed again
// after the plan) is different: its destroy half runs first, with the
// private state the create half planned. That plan leaves a note of the
// file and its hash (privatePlannedFile); Delete compares the file with it
// and refuses, in the provider's words, before the create is planned again.
// No state keeps the note: the framework starts a create's private state
// empty, and a refused Delete drops it from what it returns.

// privatePlannedFile is the private state key of the note.
const privatePlannedFile = "planned_file"

// plannedImportFile is what a plan that runs a new import read.
type plannedImportFile struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// notePlannedFile leaves the note in a new import's planned private state.
func notePlannedFile(ctx context.Context, plan listImportModel, p privateSetter) diag.Diagnostics {
	if p == nil || plan.File.IsNull() || plan.File.IsUnknown() || plan.ContentSHA256.IsNull() || plan.ContentSHA256.IsUnknown() {
		return nil
	}
	return writeJSONKey(ctx, p, privatePlannedFile, plannedImportFile{File: plan.File.ValueString(), SHA256: plan.ContentSHA256.ValueString()})
}

// dropPlannedFile removes the note (a refused destroy half keeps the
// object, whose state must not keep it).
func dropPlannedFile(ctx context.Context, p privateState) diag.Diagnostics {
	return dropPrivateKey(ctx, p, privatePlannedFile)
}

// checkPlannedFile is the destroy half of a replacement: it reports false,
// with an error, when the file the create half planned changed or went
// away since the plan.
func checkPlannedFile(ctx context.Context, planned privateGetter, diags *diag.Diagnostics) bool {
	if planned == nil {
		return true
	}
	raw, d := planned.GetKey(ctx, privatePlannedFile)
	if d.HasError() || len(raw) == 0 {
		return true
	}
	var note plannedImportFile
	if json.Unmarshal(raw, &note) != nil || note.File == "" {
		return true
	}
	sum, exists, err := hashFile(note.File)
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("file"), "Unable to read the import file", err.Error())
		return false
	case !exists:
		diags.AddAttributeError(path.Root("file"), "Import file gone since the plan",
			fmt.Sprintf("There is no file at %q any more; the plan read it. Nothing was imported, and the import this one replaces stays in the state. Restore the file, or plan again.", note.File))
		return false
	case sum != note.SHA256:
		diags.AddAttributeError(path.Root("file"), "Import file changed since the plan",
			fmt.Sprintf("%s changed since the plan was made: its SHA-256 is %s, the plan read %s. Nothing was imported, and the import this one replaces stays in the state. "+
				"The apply imports only what the plan showed: plan again (terraform plan) and review the new plan.", note.File, sum, note.SHA256))
		return false
	}
	return true
}
