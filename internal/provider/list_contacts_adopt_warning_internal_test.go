package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestWarnAdoptedWithoutContacts: the warning names the size of a list this
// run adopted without its contacts, and is not given for another list, nor
// before the provider is configured (no adoptions).
func TestWarnAdoptedWithoutContacts(t *testing.T) {
	adopted := &adoptedLists{}
	adopted.note("42", 5200)
	for name, tc := range map[string]struct {
		adopted *adoptedLists
		listID  string
		want    string
	}{
		"adopted list":            {adopted: adopted, listID: "42", want: "List 42 holds 5200 contacts"},
		"another list":            {adopted: adopted, listID: "43"},
		"provider not configured": {listID: "42"},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			warnAdoptedWithoutContacts(&diags, tc.adopted, tc.listID)
			if tc.want == "" {
				if len(diags) != 0 {
					t.Fatalf("warned: %v", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary() != "List adopted without its contacts" || !strings.Contains(diags[0].Detail(), tc.want) {
				t.Fatalf("got %v, want one warning saying %q", diags, tc.want)
			}
		})
	}
	if (*providerData)(nil).adoptions() != nil {
		t.Error("an unconfigured provider has adoptions")
	}
}
