package provider_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Adoption that finishes (Terraform 1.11+): an import block and `terraform
// plan -generate-config-out` write a configuration for a list of a few
// contacts that plans, and applies writing nothing; a list above the map's
// bound gets a configuration whose error names the block to write.
func TestAccListContactsAdoptGenerateConfig(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	small, large := newTestList(t, env), newTestList(t, env)
	id := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := env.Emulator.UpsertContacts(id(small), []emulator.Contact{
		{OriginalID: "a-1", Properties: map[string]string{"email": "a1@example.com", "firstname": "Ada"}},
		{OriginalID: "a-2", Properties: map[string]string{"email": "a2@example.com"}, Status: "UNSUBSCRIBED"},
		{OriginalID: "a-3", Properties: map[string]string{"email": "a3@example.com", "lastname": "Lovelace"}, MobileStatus: "UNSUBSCRIBED"},
	}); err != nil {
		t.Fatal(err)
	}
	many := make([]emulator.Contact, 1001)
	for i := range many {
		many[i] = emulator.Contact{OriginalID: fmt.Sprintf("m-%04d", i), Properties: map[string]string{"email": fmt.Sprintf("m%d@example.com", i)}}
	}
	if err := env.Emulator.UpsertContacts(id(large), many); err != nil {
		t.Fatal(err)
	}

	ws := acctest.NewWorkspace(t)
	ws.Configure(env, fmt.Sprintf("import {\n  to = rms_list_contacts.small\n  id = %q\n}\n", small))
	if out, code := ws.Run("plan", "-generate-config-out=generated.tf", "-no-color"); code != 0 {
		t.Fatalf("plan -generate-config-out exited %d:\n%s", code, out)
	}
	generated, err := os.ReadFile(ws.Path("generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if !acctest.Contains(string(generated), "a-1 = {", `firstname = "Ada"`, `email_status = "UNSUBSCRIBED"`, `lastname = "Lovelace"`) {
		t.Fatalf("the generated configuration does not hold the list's contacts:\n%s", generated)
	}
	writes := env.Emulator.Requests().Total
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 || !acctest.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Fatalf("the apply of the generated configuration (exit %d):\n%s", code, out)
	}
	for _, c := range listContactsOf(t, env, small) {
		if c.OriginalID == "a-1" && c.Properties["firstname"] != "Ada" || c.OriginalID == "a-2" && c.Status != "UNSUBSCRIBED" || c.OriginalID == "a-3" && c.MobileStatus != "UNSUBSCRIBED" {
			t.Errorf("the adoption changed %+v", c)
		}
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the adoption is not empty (exit %d):\n%s", code, out)
	}
	t.Logf("%d requests from the apply and the plan after it", env.Emulator.Requests().Total-writes)

	// A plain import under a configuration that manages fewer keys: the
	// map the import put in state is the service's, so the keys the
	// configuration leaves out are not values to remove.
	plain := acctest.NewWorkspace(t)
	plain.Configure(env, fmt.Sprintf(`
resource "rms_list_contacts" "plain" {
  list_id  = %q
  contacts = {
    "a-1" = { properties = { email = "a1@example.com" } }
  }
}
`, small))
	if out, code := plain.Run("import", "-no-color", "rms_list_contacts.plain", small); code != 0 {
		t.Fatalf("terraform import exited %d:\n%s", code, out)
	}
	if out, code := plain.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply after a plain import exited %d:\n%s", code, out)
	}
	if got := listContactsOf(t, env, small)["a-1"]; got.Properties["firstname"] != "Ada" {
		t.Errorf("the first apply after a plain import removed a value the configuration does not manage: %+v", got)
	}
	if out, code := plain.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the plain import's apply is not empty (exit %d):\n%s", code, out)
	}

	// Above the map's bound: the import says so, and the generated
	// configuration's error names the block to write.
	big := acctest.NewWorkspace(t)
	big.Configure(env, fmt.Sprintf("import {\n  to = rms_list_contacts.large\n  id = %q\n}\n", large))
	out, _ := big.Run("plan", "-generate-config-out=generated.tf", "-no-color")
	if !acctest.Contains(out, "Give contacts or source_file", "source_file = \"${path.module}/list-"+large+".csv\"") {
		t.Fatalf("the plan of a large list's generated configuration does not name the block to write:\n%s", out)
	}
	if strings.Contains(out, "Exactly one of these attributes") {
		t.Errorf("the framework's bare message is shown:\n%s", out)
	}
}
