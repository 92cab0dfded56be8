package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// subscribed is a listing of n contacts of which the first unsubEmail
// are unsubscribed from e-mail and the first unsubMobile from mobile.
func subscribed(n, unsubEmail, unsubMobile int) *contactsync.ServiceList {
	m := make(map[string]contactsync.ServiceContact, n)
	for i := range n {
		c := contactsync.ServiceContact{Email: sub, Mobile: sub}
		if i < unsubEmail {
			c.Email = unsub
		}
		if i < unsubMobile {
			c.Mobile = unsub
		}
		m[fmt.Sprintf("c%05d", i)] = c
	}
	return contactsync.ServiceListOf(m)
}

// The zero value of a framework value is null: a limit left out. The share
// is of each channel's subscribers before the change; held when either
// channel exceeds both limits.
func TestUnsubscribeLimits(t *testing.T) {
	t.Parallel()
	i64, f64 := types.Int64Value, types.Float64Value
	n, p := int64(300), 50.0
	cases := []struct {
		name          string
		res           unsubscribeLimitArgs
		prov          providerUnsubscribeLimits
		count         unsubscribeCount
		wantHeld      bool
		wantDetail    []string
		wantNotDetail string
	}{
		{name: "defaults: 101 of 1000 subscribers is above 100 and above 10 %", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 0), 101, 101), wantHeld: true,
			wantDetail: []string{"max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 10 (the default)", "101 of the 1000 contacts subscribed to e-mail (10.1 %)"}},
		{name: "defaults: 100 of 500 is not above 100", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(500, 0, 0), 100, 100)},
		{name: "defaults: 150 of 2000 subscribers is 7.5 %, not above 10 %", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(2000, 0, 0), 150, 150)},
		{name: "defaults: all 50 of a small list pass", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(50, 0, 0), 50, 50)},
		{name: "why 5: 150 subscribers among 1450 long unsubscribed, all 150 unsubscribed: held", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1600, 1450, 1450), 150, 150), wantHeld: true,
			wantDetail: []string{"150 of the 150 contacts subscribed to e-mail (100.0 %) and 150 of the 150 contacts subscribed to mobile (100.0 %); list 7 holds 1600 contacts",
				"`max_unsubscribe = 150` or `max_unsubscribe_percent = 100`"}},
		{name: "per channel: e-mail within, mobile above: held", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 800), 101, 101), wantHeld: true,
			wantDetail: []string{"101 of the 1000 contacts subscribed to e-mail (10.1 %) and 101 of the 200 contacts subscribed to mobile (50.5 %)", "`max_unsubscribe_percent = 50.5`"}},
		{name: "per channel: neither channel above both", count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 900), 50, 50)},
		{name: "no statuses shown: the share is of all contacts, and the plan says so", count: contactsync.ChannelCount("7", "exclusive = true", contactsync.ServiceListOf(map[string]contactsync.ServiceContact{"a": {}, "b": {}, "c": {}}), 2, 2),
			res: unsubscribeLimitArgs{MaxUnsubscribe: i64(1)}, wantHeld: true,
			wantDetail: []string{"2 of the 3 contacts on e-mail (66.7 %)", "the service shows no subscription statuses, so every contact counts as subscribed"}},
		{name: "UNSUBSCRIBE import: e-mail only", count: contactsync.ChannelCount("7", "the UNSUBSCRIBE import", subscribed(1600, 1450, 0), 150, -1), wantHeld: true,
			wantDetail: []string{"the UNSUBSCRIBE import unsubscribes 150 of the 150 contacts subscribed to e-mail (100.0 %); list 7 holds 1600 contacts"}, wantNotDetail: "subscribed to mobile"},
		{name: "REPLACE: the share stays of all contacts", count: contactsync.RemovalCount("7", "the REPLACE import", 150, 1600),
			wantDetail: []string{"the REPLACE import removes from the list for good 150 of the 1600 contacts of list 7 (9.4 %)"}},
		{name: "provider block raises the count", prov: providerUnsubscribeLimits{count: &n}, count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 0), 250, 250)},
		{name: "provider block sets the share", prov: providerUnsubscribeLimits{percent: &p}, count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 0), 600, 600), wantHeld: true,
			wantDetail: []string{"max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 50 (set in the provider block)"}},
		{name: "resource wins over provider", res: unsubscribeLimitArgs{MaxUnsubscribe: i64(0), MaxUnsubscribePercent: f64(0)}, prov: providerUnsubscribeLimits{count: &n, percent: &p},
			count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 0), 1, 0), wantHeld: true,
			wantDetail: []string{"max_unsubscribe = 0 (set on this resource) and max_unsubscribe_percent = 0 (set on this resource)"}},
		{name: "resource percent 100 lets everything through", res: unsubscribeLimitArgs{MaxUnsubscribePercent: f64(100)}, count: contactsync.ChannelCount("7", "exclusive = true", subscribed(1000, 0, 0), 1000, 1000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := resolveUnsubscribeLimits(tc.res, tc.prov, "this resource")
			if got := l.exceeds(tc.count); got != tc.wantHeld {
				t.Errorf("exceeds = %v, want %v", got, tc.wantHeld)
			}
			var diags diag.Diagnostics
			ok := checkUnsubscribeLimit(&diags, tc.count, l, guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
			if ok == tc.wantHeld || diags.HasError() != tc.wantHeld || len(diags) != 1 {
				t.Fatalf("checkUnsubscribeLimit = %v with %v", ok, diags)
			}
			for _, want := range tc.wantDetail {
				if !strings.Contains(diags[0].Detail(), want) {
					t.Errorf("detail %q lacks %q", diags[0].Detail(), want)
				}
			}
			if tc.wantNotDetail != "" && strings.Contains(diags[0].Detail(), tc.wantNotDetail) {
				t.Errorf("detail %q names %q", diags[0].Detail(), tc.wantNotDetail)
			}
		})
	}
}

func TestCheckUnsubscribeLimitMessages(t *testing.T) {
	t.Parallel()
	l := resolveUnsubscribeLimits(unsubscribeLimitArgs{MaxUnsubscribe: types.Int64Null(), MaxUnsubscribePercent: types.Float64Null()}, providerUnsubscribeLimits{}, "this resource")
	var diags diag.Diagnostics
	checkUnsubscribeLimit(&diags, contactsync.RemovalCount("7", "the REPLACE import", 450, 999), l, guardTarget{Attr: path.Root(attrMaxUnsubscribe)})
	d := diags[0].Detail()
	for _, want := range []string{"the REPLACE import removes from the list for good 450 of the 999 contacts of list 7 (45.0 %)", "`max_unsubscribe = 450` or `max_unsubscribe_percent = 45.1`", "on this resource"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q lacks %q", d, want)
		}
	}
	diags = nil
	checkUnsubscribeLimit(&diags, contactsync.ChannelCount("7", "exclusive = true", subscribed(999, 0, 0), 0, 0), l, guardTarget{})
	if len(diags) != 0 {
		t.Errorf("nothing unsubscribed, got %v", diags)
	}
	diags = nil
	checkUnsubscribeLimit(&diags, contactsync.ChannelCount("7", "destroying rms_list_contacts", subscribed(500, 0, 0), 500, 0), l, guardTarget{Destroy: true})
	if _, pathed := diags[0].(diag.DiagnosticWithPath); pathed || !strings.Contains(diags[0].Detail(), "prevent_destroy") {
		t.Errorf("destroy diagnostic: %v", diags)
	}
}

func TestCountImport(t *testing.T) {
	t.Parallel()
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
	// Its share is of the 2 contacts subscribed to e-mail.
	want := unsubscribeCount{ListID: "7", What: "the UNSUBSCRIBE import", ListSize: 4, Channels: []channelShare{{Channel: "e-mail", Count: 1, Of: 2}}}
	if diff := cmp.Diff(want, countImport("7", "UNSUBSCRIBE", ids, contactsync.ServiceListOf(service))); diff != "" {
		t.Errorf("UNSUBSCRIBE (-want +got):\n%s", diff)
	}
	// REPLACE drops whatever the file does not name, whatever its status.
	want = unsubscribeCount{ListID: "7", What: "the REPLACE import", ListSize: 4, Removes: true, Channels: []channelShare{{Count: 2, Of: 4}}}
	if diff := cmp.Diff(want, countImport("7", "REPLACE", ids, contactsync.ServiceListOf(service))); diff != "" {
		t.Errorf("REPLACE (-want +got):\n%s", diff)
	}
	args.IdentityColumn = types.StringValue("email")
	if _, err := importIdentities(args); err == nil || !strings.Contains(err.Error(), `no identity column "email"`) {
		t.Errorf("missing identity column: %v", err)
	}
}
