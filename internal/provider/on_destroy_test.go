package provider

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// TestDestroyTargets: destroy with on_destroy = "unsubscribe" touches, per
// contact, only the channels the input sets a status for, and only where
// the service does not show them unsubscribed already.
func TestDestroyTargets(t *testing.T) {
	t.Parallel()
	desired := []contactsync.Desired{
		{ID: "both", Email: sub, Mobile: sub},
		{ID: "email-only", Email: sub},
		{ID: "mobile-only", Mobile: unsub},
		{ID: "no-status"},
		{ID: "opted-out", Email: sub, Mobile: sub},
		{ID: "gone", Email: sub},
	}
	service := map[string]contactsync.ServiceContact{
		"both": {Email: sub, Mobile: sub}, "email-only": {Email: sub, Mobile: sub}, "mobile-only": {Email: sub, Mobile: sub},
		"no-status": {Email: sub, Mobile: sub}, "opted-out": {Email: unsub, Mobile: sub}, "stranger": {Email: sub, Mobile: sub},
	}
	got := destroyTargetsOf(contactsync.BookOf(desired), contactsync.ServiceListOf(service))
	if diff := cmp.Diff([]string{"both", "email-only"}, got.Email); diff != "" {
		t.Errorf("e-mail (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"both", "mobile-only", "opted-out"}, got.Mobile); diff != "" {
		t.Errorf("mobile (-want +got):\n%s", diff)
	}
	if got.contacts() != 4 || got.Before["opted-out"] != (client.SubscriptionStatus{Status: unsub, MobileStatus: sub}) {
		t.Errorf("before: %+v", got.Before)
	}
	want := []contactsync.Change{
		{ID: "both", Status: client.SubscriptionStatus{Status: unsub, MobileStatus: unsub}},
		{ID: "email-only", Status: client.SubscriptionStatus{Status: unsub}},
		{ID: "mobile-only", Status: client.SubscriptionStatus{MobileStatus: unsub}},
		{ID: "opted-out", Status: client.SubscriptionStatus{MobileStatus: unsub}},
	}
	if diff := cmp.Diff(want, got.changes(false)); diff != "" {
		t.Errorf("single calls (-want +got):\n%s", diff)
	}
	// Above batch_threshold an UNSUBSCRIBE import does e-mail.
	want = []contactsync.Change{
		{ID: "both", Status: client.SubscriptionStatus{MobileStatus: unsub}},
		{ID: "mobile-only", Status: client.SubscriptionStatus{MobileStatus: unsub}},
		{ID: "opted-out", Status: client.SubscriptionStatus{MobileStatus: unsub}},
	}
	if diff := cmp.Diff(want, got.changes(true)); diff != "" {
		t.Errorf("single calls after the import (-want +got):\n%s", diff)
	}
}

// TestDestroyStatus: rms_contact's destroy with on_destroy = "unsubscribe"
// sends UNSUBSCRIBED on the channels the configuration set, nothing for an
// imported contact never applied since.
func TestDestroyStatus(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		applied  appliedStatus
		recorded bool
		want     client.SubscriptionStatus
	}{
		{"both set", appliedStatus{Email: sub, Mobile: unsub}, true, client.SubscriptionStatus{Status: unsub, MobileStatus: unsub}},
		{"e-mail set", appliedStatus{Email: sub}, true, client.SubscriptionStatus{Status: unsub}},
		{"none set", appliedStatus{}, true, client.SubscriptionStatus{}},
		{"imported", appliedStatus{Unknown: true}, true, client.SubscriptionStatus{}},
		{"no record", appliedStatus{}, false, client.SubscriptionStatus{}},
	}
	for _, tc := range cases {
		if got := destroyStatus(tc.applied, tc.recorded); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestOnDestroyStateUpgrade: a state written before on_destroy existed
// (schema version 0) reads as on_destroy = "forget" and keeps every other
// value, for both resources; a value present is kept.
func TestOnDestroyStateUpgrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		r    resource.ResourceWithUpgradeState
		raw  string
		want string
	}{
		{"rms_contact", &contactResource{}, `{"id":"7/a","list_id":"7","original_id":"a","email_status":"SUBSCRIBED","allow_resubscribe":false}`, "forget"},
		{"rms_contact null", &contactResource{}, `{"id":"7/a","list_id":"7","original_id":"a","on_destroy":null}`, "forget"},
		{"rms_list_contacts", &listContactsResource{}, `{"id":"7","list_id":"7","contacts":{"a":{"properties":null,"email_status":"SUBSCRIBED","mobile_status":null}},"exclusive":false,"batch_threshold":100,"contact_count":1,"timeouts":null}`, "forget"},
		{"rms_list_contacts set", &listContactsResource{}, `{"id":"7","list_id":"7","on_destroy":"unsubscribe"}`, "unsubscribe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var sch resource.SchemaResponse
			tc.r.(resource.Resource).Schema(ctx, resource.SchemaRequest{}, &sch)
			if sch.Schema.Version != 1 {
				t.Fatalf("schema version %d, want 1", sch.Schema.Version)
			}
			up, ok := tc.r.UpgradeState(ctx)[0]
			if !ok {
				t.Fatal("no upgrader from version 0")
			}
			resp := resource.UpgradeStateResponse{}
			up.StateUpgrader(ctx, resource.UpgradeStateRequest{RawState: &tfprotov6.RawState{JSON: []byte(tc.raw)}}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			typ := sch.Schema.Type().TerraformType(ctx)
			v, err := resp.DynamicValue.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			var attrs map[string]tftypes.Value
			if err := v.As(&attrs); err != nil {
				t.Fatal(err)
			}
			var got, listID string
			if err := attrs["on_destroy"].As(&got); err != nil || got != tc.want {
				t.Errorf("on_destroy = %q (%v), want %q", got, err, tc.want)
			}
			if err := attrs["list_id"].As(&listID); err != nil || listID != "7" {
				t.Errorf("list_id = %q (%v): other values must be kept", listID, err)
			}
		})
	}
}
