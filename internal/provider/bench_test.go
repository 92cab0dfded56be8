package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// The conversions every refresh runs, once per resource: a contact answer
// into the model (properties keyed by name, so no attribute lookup calls
// the service), and the list and project equivalents.

func benchContact() *client.Contact {
	return &client.Contact{
		ID: "17", OriginalID: "customer-42",
		Properties: map[string]string{"email": "ada@example.com", "firstname": "Ada", "lastname": "Lovelace"},
		Status:     client.StatusSubscribed, MobileStatus: client.StatusUnsubscribed,
		DateCreated: client.TimestampOf("2026-11-22T10:00:00Z"), DateModified: client.TimestampOf("2026-11-22T10:05:00Z"),
	}
}

func BenchmarkContactToModel(b *testing.B) {
	ctx := context.Background()
	r := &contactResource{data: &providerData{contacts: &contactsync.Run{Attributes: contactsync.NewAttributes(nil)}}}
	prior := contactModel{
		ListID: types.StringValue("5"),
		Properties: types.MapValueMust(types.StringType, map[string]attr.Value{
			"email": types.StringValue("x"), "firstname": types.StringValue("y"),
		}),
	}
	c := benchContact()
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := toContactModel(ctx, r.data, c, prior); diags.HasError() {
			b.Fatal(diags)
		}
	}
}

func BenchmarkListToModel(b *testing.B) {
	desc, sender := "Customers of the shop", "news@example.com"
	l := &client.List{ID: "5", Name: "Customers", Description: &desc, SenderEmail: &sender,
		DateCreated: client.TimestampOf("2026-11-22T10:00:00Z"), DateModified: client.TimestampOf("2026-11-22T10:05:00Z")}
	prior := listModel{Description: types.StringValue(desc)}
	b.ReportAllocs()
	for b.Loop() {
		_ = listToModel(l, prior)
	}
}

func BenchmarkProjectToModel(b *testing.B) {
	desc := "A project"
	p := &client.Project{ID: "3", Name: "Shop", Description: &desc,
		DateCreated: client.TimestampOf("2026-11-22T10:00:00Z"), DateModified: client.TimestampOf("2026-11-22T10:05:00Z")}
	b.ReportAllocs()
	for b.Loop() {
		_ = projectToModel(p, projectModel{})
	}
}
