package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// A source file rewritten between `terraform plan -out` and `terraform
// apply PLANFILE` must be refused before anything is written, in the
// provider's words. Terraform plans each resource again inside the apply
// and compares the result with the saved plan before the provider's apply
// runs; that second plan starts from the saved plan's refreshed state, so
// the only thing of the saved plan it sees is what Read left in private
// state. Read keeps the digest of the file's contacts there
// (privateRefreshedFile); ModifyPlan compares it with the file as it reads
// it and refuses a difference before Terraform's own "Provider produced
// inconsistent final plan" check.
//
// The key must not outlive the run whose refresh wrote it: ModifyPlan drops
// it from the planned private state, so an apply never saves it (Update
// starts from the planned private state, Create from an empty one). A plan
// with no change saves the refreshed state as it is, key included, and
// `-refresh=false` plans then see it; ModifyPlan trusts the key only when
// the refresh found something to do for the file (its digest differs from
// the state's desired_sha256, or the service differs from the file), which
// a plan with no change never does. What this cannot cover (the docs say
// so): a create (no prior state), a plan made with -refresh=false, and a
// plan that changes only other arguments; there Terraform's own check
// refuses the apply, also before anything is written.

// privateState is private state read and written (a response's).
type privateState interface {
	privateGetter
	privateSetter
}

// privateRefreshedFile is the private state key Read writes.
const privateRefreshedFile = "refreshed_file"

// refreshedFile is the source file as Read found it: how it was read and
// the digest of its contacts.
type refreshedFile struct {
	File           string `json:"file"`
	Delimiter      string `json:"delimiter"`
	Encoding       string `json:"encoding"`
	IdentityColumn string `json:"identity_column"`
	DesiredSHA256  string `json:"desired_sha256"`
}

func refreshedFileOf(m listContactsModel, digest string) refreshedFile {
	o := m.fileOptions()
	return refreshedFile{File: o.Path, Delimiter: o.Delimiter, Encoding: o.Encoding, IdentityColumn: o.IdentityColumn, DesiredSHA256: digest}
}

// recordRefreshedFile is Read's part: the digest of the file it read, or
// no key when it read none.
func recordRefreshedFile(ctx context.Context, p privateState, f *refreshedFile) diag.Diagnostics {
	if f == nil {
		return dropRefreshedFile(ctx, p)
	}
	return writeJSONKey(ctx, p, privateRefreshedFile, f)
}

// dropRefreshedFile removes the key: ModifyPlan calls it on the planned
// private state, which Update starts from, so that no apply saves it (a
// create starts from an empty private state). Create and Update need not
// call it.
func dropRefreshedFile(ctx context.Context, p privateState) diag.Diagnostics {
	return dropPrivateKey(ctx, p, privateRefreshedFile)
}

// dropPrivateKey removes a key of a private state, when it is there.
func dropPrivateKey(ctx context.Context, p privateState, key string) diag.Diagnostics {
	if p == nil {
		return nil
	}
	if raw, _ := p.GetKey(ctx, key); len(raw) == 0 {
		return nil // nothing to drop (nor, in unit tests, a private state)
	}
	return p.SetKey(ctx, key, nil)
}

// fileChangedSinceRefresh refuses a plan whose source file's contacts
// differ from those the refresh of the same plan read (see above): the
// plan made inside `terraform apply PLANFILE` after the file was rewritten.
// state is the prior (refreshed) state, digest the file's digest now.
func fileChangedSinceRefresh(ctx context.Context, prior privateGetter, plan listContactsModel, state *listContactsModel, digest string, diags *diag.Diagnostics) {
	if state == nil || !plan.isFile() {
		return
	}
	got, ok := readRefreshedFile(ctx, prior)
	if !ok {
		return
	}
	now := refreshedFileOf(plan, digest)
	if got.File != now.File || got.Delimiter != now.Delimiter || got.Encoding != now.Encoding || got.IdentityColumn != now.IdentityColumn {
		return // read another way than the refresh read it: nothing to compare
	}
	// Only a refresh that found something to do for the file is trusted:
	// after a plan without changes the key stays in the state (see above).
	if got.DesiredSHA256 == state.DesiredSHA256.ValueString() && state.ServiceSHA256.Equal(state.DesiredSHA256) {
		return
	}
	if got.DesiredSHA256 == digest {
		return
	}
	diags.AddAttributeError(path.Root("source_file"), "Source file changed since the plan",
		fmt.Sprintf("%s changed since the plan was made: the SHA-256 of its contacts is %s, the plan read %s. Nothing was written to list %s. "+
			"The apply applies only what the plan showed: plan again (terraform plan) and review the new plan.",
			plan.SourceFile.ValueString(), digest, got.DesiredSHA256, plan.ListID.ValueString()))
}

// refreshedInRun reports whether the refresh of this run read the source
// file as the plan reads it now (same way, same contacts): then the list
// was read in this run too, even where its listing is not at hand (the
// final plan of an apply runs in another provider process than the plan's
// refresh). A key left by an earlier plan without changes matches only
// when the file has not changed since, where the plan has nothing to say
// about the file's contacts anyway.
func refreshedInRun(ctx context.Context, prior privateGetter, plan listContactsModel, digest string) bool {
	got, ok := readRefreshedFile(ctx, prior)
	return ok && got == refreshedFileOf(plan, digest)
}

// readRefreshedFile is the key Read left in a prior private state, and
// whether there is one.
func readRefreshedFile(ctx context.Context, prior privateGetter) (refreshedFile, bool) {
	var got refreshedFile
	if prior == nil {
		return got, false
	}
	raw, d := prior.GetKey(ctx, privateRefreshedFile)
	if d.HasError() || len(raw) == 0 {
		return got, false
	}
	return got, json.Unmarshal(raw, &got) == nil
}
