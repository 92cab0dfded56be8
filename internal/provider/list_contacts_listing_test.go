package provider

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/operation"
)

// An import changes its list as a whole: refreshes later in the same run
// read the list's contacts from the service again (the listings
// themselves are tested in internal/contactsync).
func TestContactListings_importForgetsTheList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := emulator.New(emulator.Options{})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	o := srv.Options()
	c, err := client.New(client.Config{BaseURL: hs.URL, CustomerID: o.CustomerID, Auth: client.BasicAuth{Username: o.Username, Password: o.Password}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.Lists.Create(ctx, client.ListInput{Name: "listing"})
	if err != nil {
		t.Fatal(err)
	}
	listID := l.ID.String()
	var n int64
	if _, err := fmt.Sscan(listID, &n); err != nil {
		t.Fatalf("not an id: %q", listID)
	}
	contacts := make([]emulator.Contact, 0, 50)
	for i := range 50 {
		contacts = append(contacts, emulator.Contact{OriginalID: fmt.Sprintf("c-%d", i), Properties: map[string]string{"firstname": fmt.Sprint("F", i)}})
	}
	if err := srv.UpsertContacts(n, contacts); err != nil {
		t.Fatal(err)
	}
	data := &providerData{client: c, contacts: contactsync.NewRun(c, contactsync.RunOptions{})}
	for i := range 50 { // the listing is loaded
		if _, err := data.contacts.Listings.Read(ctx, listID, fmt.Sprintf("c-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	var diags diag.Diagnostics
	_, ok := operation.StartListImport(ctx, data.client, data.contacts.Listings, operation.ListImportRun{
		ListID: listID, Type: "ADD", Delimiter: ",", Encoding: "UTF8",
		Body: strings.NewReader("originalId,firstname\nc-3,Imported\n"), FileAttr: path.Root("file"),
	}, &diags)
	if !ok || diags.HasError() {
		t.Fatalf("import: %v", diags)
	}
	// The emulator's batches finish at once unless paced.
	if c, err := data.contacts.Listings.Read(ctx, listID, "c-3"); err != nil || c.Properties["firstname"] != "Imported" {
		t.Errorf("c-3 after the import: %+v, %v", c, err)
	}
}
