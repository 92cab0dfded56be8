package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func TestSplitContactImportID(t *testing.T) {
	tests := []struct {
		id               string
		list, originalID string
		ok               bool
	}{
		{"42/customer-7", "42", "customer-7", true},
		{"42/a/b", "42", "a/b", true}, // the first slash splits
		{"42/ spaced ", "42", " spaced ", true},
		{"42", "", "", false},
		{"42/", "", "", false},
		{"news/customer-7", "", "", false},
		{"/customer-7", "", "", false},
	}
	for _, tt := range tests {
		list, oid, ok := splitContactImportID(tt.id)
		if ok != tt.ok || (ok && (list != tt.list || oid != tt.originalID)) {
			t.Errorf("splitContactImportID(%q) = %q, %q, %v; want %q, %q, %v", tt.id, list, oid, ok, tt.list, tt.originalID, tt.ok)
		}
		if ok && contactImportID(list, oid) != tt.id {
			t.Errorf("contactImportID does not invert the split of %q", tt.id)
		}
	}
}

func TestContactFieldPath(t *testing.T) {
	tests := map[string]path.Path{
		"originalId":        path.Root("original_id"),
		"status":            path.Root("email_status"),
		"mobileStatus":      path.Root("mobile_status"),
		"properties":        path.Root("properties"),
		"properties.colour": path.Root("properties").AtMapKey("colour"),
		"properties.a.b":    path.Root("properties").AtMapKey("a.b"),
	}
	for field, want := range tests {
		got, ok := contactFieldPath(field)
		if !ok || !got.Equal(want) {
			t.Errorf("contactFieldPath(%q) = %v, %v; want %v", field, got, ok, want)
		}
	}
	if _, ok := contactFieldPath("name"); ok {
		t.Error("an unrelated field mapped onto an attribute")
	}
}

func TestReleasedContacts(t *testing.T) {
	r := newReleasedContacts()
	if _, ok := r.take("1", "a"); ok {
		t.Error("took a contact never released")
	}
	r.add("1", "a", client.SubscriptionStatus{Status: client.StatusUnsubscribed, MobileStatus: client.StatusSubscribed})
	if _, ok := r.take("2", "a"); ok {
		t.Error("took a contact of another list")
	}
	st, ok := r.take("1", "a")
	if !ok || st.Status != client.StatusUnsubscribed || st.MobileStatus != client.StatusSubscribed {
		t.Errorf("take = %+v, %v", st, ok)
	}
	if _, ok := r.take("1", "a"); ok {
		t.Error("a released contact was taken twice")
	}
}

func TestIsAttributeID(t *testing.T) {
	for key, want := range map[string]bool{"3": true, "042": true, "": false, "email": false, "3a": false, "-3": false} {
		if got := isAttributeID(key); got != want {
			t.Errorf("isAttributeID(%q) = %v, want %v", key, got, want)
		}
	}
}
