package operation

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The acceptance test TestAccOrphans_listImportUploadNamesNoBatchWithoutListings
// proves the import is kept untainted and not uploaded again; the testing
// framework does not show warnings, so this one checks the warning itself:
// an upload the service accepted without naming a batch, where the imports
// listing is absent, is one warning naming the import, that the file is not
// uploaded again, and the import command, and no error.
func TestStartListImport_acceptedWithoutBatchWarns(t *testing.T) {
	emu := emulator.New(emulator.Options{Wire: emulator.MustParseWire(emulator.WireNoListings)})
	upload := regexp.MustCompile(`^/rest/\d+/lists/\d+/recipients/\d+$`)
	uploads := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !upload.MatchString(r.URL.Path) {
			emu.ServeHTTP(w, r)
			return
		}
		// The emulator acts; its answer is cut short and names nothing.
		uploads++
		rec := httptest.NewRecorder()
		emu.ServeHTTP(rec, r)
		if rec.Code < 200 || rec.Code > 299 {
			t.Errorf("the upload itself failed: %d %s", rec.Code, rec.Body)
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes()[:rec.Body.Len()/2])
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(emu.Close)

	c, err := client.New(client.Config{BaseURL: srv.URL, CustomerID: emulator.DefaultCustomerID,
		Auth: client.BasicAuth{Username: emulator.DefaultUsername, Password: emulator.DefaultPassword}})
	if err != nil {
		t.Fatal(err)
	}
	listID := createTestList(t, srv.URL)

	var created string
	var diags diag.Diagnostics
	batch, ok := StartListImport(context.Background(), c, contactsync.NewRun(c, contactsync.RunOptions{}).Listings, ListImportRun{
		ListID: listID, Type: "ADD", Delimiter: ",", Encoding: "UTF8",
		Body: strings.NewReader("originalId\na\n"), FileAttr: path.Root("content"), RetryNote: "retry",
		Created:  func(id string) bool { created = id; return true },
		Uploaded: func(string) bool { t.Error("Uploaded called without a batch"); return true },
	}, &diags)

	if !ok || batch != "" || diags.HasError() {
		t.Fatalf("ok = %v, batch = %q, diags = %v; want ok, no batch, no error", ok, batch, diags)
	}
	if uploads != 1 {
		t.Errorf("%d uploads, want 1", uploads)
	}
	warnings := diags.Warnings()
	if len(warnings) != 1 || warnings[0].Summary() != "Import file accepted, its batch unknown" {
		t.Fatalf("warnings = %v, want one \"Import file accepted, its batch unknown\"", warnings)
	}
	detail := warnings[0].Detail()
	for _, want := range []string{
		"import " + created + " into list " + listID,
		"not uploaded again",
		fmt.Sprintf("terraform import rms_list_import.<name> %s/ADD/%s/<batch_id>", listID, created),
	} {
		if !strings.Contains(detail, want) {
			t.Errorf("warning detail lacks %q:\n%s", want, detail)
		}
	}
	// The listing's 404 hint would tell the user the import is re-created
	// by the next apply: not so here.
	if strings.Contains(detail, "re-created by the next apply") {
		t.Errorf("warning detail carries the misleading 404 hint:\n%s", detail)
	}
}

// createTestList makes a list on the emulator at base and returns its id.
func createTestList(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/rest/%d/lists", base, emulator.DefaultCustomerID),
		bytes.NewReader([]byte(`{"name":"Imported"}`)))
	req.SetBasicAuth(emulator.DefaultUsername, emulator.DefaultPassword)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct {
		ID json.Number `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.ID == "" {
		t.Fatalf("creating a list: status %d, %v", resp.StatusCode, err)
	}
	return out.ID.String()
}
