package provider_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Adoption above the map's bound finishes (Terraform 1.11+), as the
// adoption guide and the import's error say: `plan -generate-config-out`
// writes a block without contacts; source_file is added to it, the
// contacts_csv function renders the file from the rms_contacts data
// source (read alone with -target), `terraform output -raw` writes it,
// and the apply imports the list writing nothing, after which a plan has
// no changes.
func TestAccListContactsAdoptLargeList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	list := newTestList(t, env)
	const n = 5200
	seedNumbered(t, env, list, n, "c-%05d", "c%d@example.com", func(i int, c *emulator.Contact) {
		switch i % 4 {
		case 1:
			c.Properties["firstname"] = fmt.Sprintf("Ada, \"%d\"", i) // quoted in the file
		case 2:
			c.Status = "UNSUBSCRIBED"
		case 3:
			c.MobileStatus = "UNSUBSCRIBED"
		}
	})
	before := listContactsOf(t, env, list)

	ws := acctest.NewWorkspace(t)
	ws.Configure(env, fmt.Sprintf("import {\n  to = rms_list_contacts.large\n  id = %q\n}\n", list))
	out, _ := ws.Run("plan", "-generate-config-out=generated.tf", "-no-color")
	if !acctest.Contains(out, "Give contacts or source_file", "provider::rms::contacts_csv", "rms_export_list_contacts_csv") {
		t.Fatalf("the plan of the generated configuration does not say how to write the file:\n%s", out)
	}
	generated, err := os.ReadFile(ws.Path("generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// As the error says: source_file in the generated block, and the data
	// source and output that render the file.
	withFile := regexp.MustCompile(`(?m)^(\s*source_file\s*=\s*)null$`).ReplaceAllString(string(generated), fmt.Sprintf("${1}\"${path.module}/list-%s.csv\"", list))
	if withFile == string(generated) {
		t.Fatalf("no source_file = null in the generated configuration:\n%s", generated)
	}
	ws.Write("generated.tf", withFile)
	ws.Write("render.tf", fmt.Sprintf(`
data "rms_contacts" "list_%[1]s" {
  list_id = %[1]q
}
output "list_%[1]s_csv" {
  value = provider::rms::contacts_csv(data.rms_contacts.list_%[1]s.contacts)
}
`, list))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color", "-target=data.rms_contacts.list_"+list); code != 0 {
		t.Fatalf("the targeted apply of the data source exited %d:\n%s", code, out)
	}
	csv, code := ws.Run("output", "-raw", "list_"+list+"_csv")
	if code != 0 {
		t.Fatalf("terraform output -raw exited %d:\n%s", code, csv)
	}
	if lines := strings.Count(csv, "\n"); lines < n+1 || !strings.HasPrefix(csv, "originalId,email,firstname,email_status,mobile_status\n") {
		t.Fatalf("the rendered file has %d lines and starts %q", lines, csv[:min(len(csv), 200)])
	}
	ws.Write("list-"+list+".csv", csv)

	writes := env.Emulator.Requests()
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 || !acctest.Contains(out, "1 imported, 0 added, 1 changed, 0 destroyed") {
		t.Fatalf("the apply of the adopted list (exit %d):\n%s", code, out)
	}
	after := env.Emulator.Requests()
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		if d := after.ByMethod[m] - writes.ByMethod[m]; d != 0 {
			t.Errorf("the adoption's apply sent %d %s requests; it must write nothing", d, m)
		}
	}
	now := listContactsOf(t, env, list)
	if len(now) != n {
		t.Errorf("the list holds %d contacts after the adoption, want %d", len(now), n)
	}
	for id, c := range before {
		got := now[id]
		if got.Status != c.Status || got.MobileStatus != c.MobileStatus || fmt.Sprint(got.Properties) != fmt.Sprint(c.Properties) {
			t.Errorf("the adoption changed %s: %+v, was %+v", id, got, c)
			break
		}
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the adoption is not empty (exit %d):\n%s", code, out)
	}
}
