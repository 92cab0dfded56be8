package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// TestSuppressionListSetting: the provider block's suppression list comes
// from the attribute, else RMS_SUPPRESSION_LIST_ID; one that is no list id
// is an error naming the variable.
func TestSuppressionListSetting(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		attr    types.String
		env     string
		want    string
		wantErr bool
	}{
		"none":                      {attr: types.StringNull()},
		"attribute":                 {attr: types.StringValue("12"), env: "34", want: "12"},
		"variable":                  {attr: types.StringNull(), env: " 34 ", want: "34"},
		"variable not a list id":    {attr: types.StringNull(), env: "opt-outs", wantErr: true},
		"empty variable means none": {attr: types.StringNull(), env: ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			env := func(string) (string, bool) { return tc.env, tc.env != "" }
			got := suppressionListSetting(tc.attr, env, &diags)
			if got != tc.want || diags.HasError() != tc.wantErr {
				t.Fatalf("got %q, errors %v; want %q, error %v", got, diags, tc.want, tc.wantErr)
			}
			if tc.wantErr && !strings.Contains(diags.Errors()[0].Detail(), envSuppressionListID) {
				t.Errorf("the error does not name %s: %s", envSuppressionListID, diags.Errors()[0].Detail())
			}
		})
	}
}

// TestSuppressionFor: a resource's own suppression_list_id wins over the
// provider block's; the provider block's does not apply to the
// suppression list itself; an unknown value is none yet.
func TestSuppressionFor(t *testing.T) {
	t.Parallel()
	d := &providerData{suppressionListID: "9", contacts: contactsync.NewRun(nil, contactsync.RunOptions{})}
	for name, tc := range map[string]struct {
		own    types.String
		listID string
		want   string
	}{
		"provider default":                {own: types.StringNull(), listID: "5", want: "9"},
		"own wins":                        {own: types.StringValue("7"), listID: "5", want: "7"},
		"not the suppression list itself": {own: types.StringNull(), listID: "9"},
		"unknown":                         {own: types.StringUnknown(), listID: "5"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, id := d.suppressionFor(tc.own, tc.listID)
			if id != tc.want || (s == nil) != (tc.want == "") || (s != nil && s.ListID() != tc.want) {
				t.Errorf("suppressionFor = %v, %q; want %q", s, id, tc.want)
			}
		})
	}
	if s, _ := d.suppressionFor(types.StringNull(), "5"); s != d.contacts.Suppression("9") {
		t.Error("two resources of a run get two Suppressions of one list")
	}
}
