package provider

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The zero value of a framework value is null: a limit left out.
func TestUnsubscribeLimits(t *testing.T) {
	i64, f64 := types.Int64Value, types.Float64Value
	n, p := int64(300), 50.0
	cases := []struct {
		name       string
		res        unsubscribeLimitArgs
		prov       providerUnsubscribeLimits
		count, of  int
		wantHeld   bool
		wantSet    bool
		wantDetail string
	}{
		{name: "defaults: 101 of 1000 is above 100 and above 10 %", count: 101, of: 1000, wantHeld: true,
			wantDetail: "max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 10 (the default)"},
		{name: "defaults: 100 of 500 is not above 100", count: 100, of: 500},
		{name: "defaults: 150 of 2000 is 7.5 %, not above 10 %", count: 150, of: 2000},
		{name: "defaults: all 50 of a small list pass", count: 50, of: 50},
		{name: "provider block raises the count", prov: providerUnsubscribeLimits{count: &n}, count: 250, of: 1000, wantSet: true},
		{name: "provider block sets the share", prov: providerUnsubscribeLimits{percent: &p}, count: 600, of: 1000, wantHeld: true, wantSet: true,
			wantDetail: "max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 50 (set in the provider block)"},
		{name: "resource wins over provider", res: unsubscribeLimitArgs{MaxUnsubscribe: i64(0), MaxUnsubscribePercent: f64(0)}, prov: providerUnsubscribeLimits{count: &n, percent: &p},
			count: 1, of: 1000, wantHeld: true, wantSet: true,
			wantDetail: "max_unsubscribe = 0 (set on this resource) and max_unsubscribe_percent = 0 (set on this resource)"},
		{name: "resource percent 100 lets everything through", res: unsubscribeLimitArgs{MaxUnsubscribePercent: f64(100)}, count: 1000, of: 1000, wantSet: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := resolveUnsubscribeLimits(tc.res, tc.prov, "this resource")
			c := unsubscribeCount{ListID: "7", Count: tc.count, ListSize: tc.of, What: "exclusive = true"}
			if got := l.exceeds(c); got != tc.wantHeld {
				t.Errorf("exceeds = %v, want %v", got, tc.wantHeld)
			}
			if got := l.userSet(); got != tc.wantSet {
				t.Errorf("userSet = %v, want %v", got, tc.wantSet)
			}
			var diags diag.Diagnostics
			ok := checkUnsubscribeLimit(&diags, c, l, guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
			if ok == tc.wantHeld || diags.HasError() != tc.wantHeld || len(diags) != 1 {
				t.Fatalf("checkUnsubscribeLimit = %v with %v", ok, diags)
			}
			if tc.wantDetail != "" && !strings.Contains(diags[0].Detail(), tc.wantDetail) {
				t.Errorf("detail %q does not name the limits %q", diags[0].Detail(), tc.wantDetail)
			}
		})
	}
}

func TestCheckUnsubscribeLimitMessages(t *testing.T) {
	l := resolveUnsubscribeLimits(unsubscribeLimitArgs{MaxUnsubscribe: types.Int64Null(), MaxUnsubscribePercent: types.Float64Null()}, providerUnsubscribeLimits{}, "this resource")
	var diags diag.Diagnostics
	checkUnsubscribeLimit(&diags, unsubscribeCount{ListID: "7", Count: 450, ListSize: 999, What: "the REPLACE import", Removes: true}, l, guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
	d := diags[0].Detail()
	for _, want := range []string{"the REPLACE import removes from the list for good 450 of the 999 contacts of list 7 (45.0 %)", "`max_unsubscribe = 450` or `max_unsubscribe_percent = 45.1`", "on this resource"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q lacks %q", d, want)
		}
	}
	diags = nil
	checkUnsubscribeLimit(&diags, unsubscribeCount{ListID: "7", Count: 0, ListSize: 999}, l, guardTarget{})
	if len(diags) != 0 {
		t.Errorf("nothing unsubscribed, got %v", diags)
	}
	diags = nil
	checkUnsubscribeLimit(&diags, unsubscribeCount{ListID: "7", Count: 500, ListSize: 500, What: "destroying rms_list_contacts"}, l, guardTarget{Destroy: true})
	if _, pathed := diags[0].(diag.DiagnosticWithPath); pathed || !strings.Contains(diags[0].Detail(), "prevent_destroy") {
		t.Errorf("destroy diagnostic: %v", diags)
	}
}

func TestCountImport(t *testing.T) {
	service := map[string]contactsync.ServiceContact{
		"a": {Email: sub, Mobile: sub}, "b": {Email: unsub, Mobile: sub}, "c": {Email: sub}, "d": {Email: unsub, Mobile: unsub},
	}
	csv := "originalId;name\n a ;Ann\nb;Bob\nbad row\n;empty\nx;Xavier\n"
	args := listImportArgs{Content: types.StringValue(csv), File: types.StringNull(), Delimiter: types.StringValue(";")}
	ids, err := importIdentities(args)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"a": true, "b": true, "x": true}, ids); diff != "" {
		t.Errorf("identities (-want +got):\n%s", diff)
	}
	// UNSUBSCRIBE changes e-mail only: b is unsubscribed from it already, x is not in the list.
	if got := countImport("UNSUBSCRIBE", ids, service); got.Count != 1 || got.ListSize != 4 || got.Removes {
		t.Errorf("UNSUBSCRIBE: %+v", got)
	}
	// REPLACE drops whatever the file does not name, whatever its status.
	if got := countImport("REPLACE", ids, service); got.Count != 2 || !got.Removes {
		t.Errorf("REPLACE: %+v", got)
	}
	args.IdentityColumn = types.StringValue("email")
	if _, err := importIdentities(args); err == nil || !strings.Contains(err.Error(), `no identity column "email"`) {
		t.Errorf("missing identity column: %v", err)
	}
}
