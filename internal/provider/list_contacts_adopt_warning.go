package provider

import (
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The warning "List adopted without its contacts" is decided at plan, not
// by the refresh after an import: that refresh cannot see the
// configuration, and a configuration that already gives source_file (or
// a map) needs no warning. The refresh notes the list in the run's
// adoptedLists instead; the plan's validation of the configuration, on
// the same provider instance and after the refresh, warns only when that
// configuration gives neither contacts nor source_file (the block that
// `terraform plan -generate-config-out` writes for such a list).

// adoptedLists are the lists an import of this provider run adopted
// without their contacts (more than adoptMaxContacts), by list id, with
// how many contacts each holds. The zero value is ready; a nil one notes
// nothing (a provider not configured yet).
type adoptedLists struct {
	mu sync.Mutex
	n  map[string]int
}

// note remembers that list listID, of n contacts, was adopted without
// them.
func (a *adoptedLists) note(listID string, n int) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[string]int{}
	}
	a.n[listID] = n
}

// contacts is how many contacts list listID holds, when this run adopted
// it without them.
func (a *adoptedLists) contacts(listID string) (int, bool) {
	if a == nil {
		return 0, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	n, ok := a.n[listID]
	return n, ok
}

// adoptions is the run's adoptedLists; nil before the provider is
// configured (the validation of `terraform validate`).
func (d *providerData) adoptions() *adoptedLists {
	if d == nil {
		return nil
	}
	return d.adopted
}

// warnAdoptedWithoutContacts is the warning of a configuration that gives
// neither contacts nor source_file for a list this run adopted without
// its contacts; the error beside it says what to write.
func warnAdoptedWithoutContacts(diags *diag.Diagnostics, a *adoptedLists, listID string) {
	n, ok := a.contacts(listID)
	if !ok {
		return
	}
	diags.AddAttributeWarning(path.Root("source_file"), "List adopted without its contacts",
		fmt.Sprintf("List %s holds %d contacts, more than the %d an imported rms_list_contacts writes into its state as a map, so a configuration generated from it (terraform plan -generate-config-out) has neither contacts nor source_file. "+
			"The error \"Give contacts or source_file\" says what to write; once source_file is set, this warning is not shown again.",
			listID, n, adoptMaxContacts))
}
