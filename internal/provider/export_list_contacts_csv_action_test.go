package provider_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// rms_export_list_contacts_csv (Terraform 1.14+) writes a list's contacts
// as a source_file: the same bytes as the contacts_csv function renders
// from the rms_contacts data source, and an import of the list above the
// map's bound given that file plans no change after its apply, which
// writes nothing to the list.
func TestAccExportListContactsCSVAction(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.RequireCLI(t, "actions", "1.14.0", "")
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	list := newTestList(t, env)
	seedNumbered(t, env, list, 1001, "x-%04d", "x%d@example.com", func(i int, c *emulator.Contact) {
		switch i % 3 {
		case 1:
			c.Properties["lastname"] = "Hopper"
		case 2:
			c.Status, c.MobileStatus = "UNSUBSCRIBED", "UNSUBSCRIBED"
		}
	})
	ws := acctest.NewWorkspace(t)
	run := func(args ...string) string {
		t.Helper()
		out, code := ws.Run(append(args, "-no-color")...)
		if code != 0 {
			t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
		}
		return out
	}
	render := fmt.Sprintf(`
action "rms_export_list_contacts_csv" "l" {
  config {
    list_id     = %[1]q
    output_path = "${path.module}/out/list.csv"
  }
}

data "rms_contacts" "l" {
  list_id = %[1]q
}

output "csv" {
  value = provider::rms::contacts_csv(data.rms_contacts.l.contacts)
}
`, list)
	ws.Configure(env, render)
	if out := run("apply", "-auto-approve", "-invoke=action.rms_export_list_contacts_csv.l"); !strings.Contains(out, "wrote the 1001 contacts of list "+list) {
		t.Errorf("the action's progress does not say what it wrote:\n%s", out)
	}
	written, err := os.ReadFile(ws.Path("out/list.csv"))
	if err != nil {
		t.Fatal(err)
	}
	run("apply", "-auto-approve")
	if rendered := run("output", "-raw", "csv"); rendered != string(written) {
		t.Fatalf("the action wrote %d bytes, the function rendered %d other bytes; the action's file starts\n%s", len(written), len(rendered), written[:min(len(written), 300)])
	}

	ws.Configure(env, render+fmt.Sprintf(`
import {
  to = rms_list_contacts.l
  id = %[1]q
}

resource "rms_list_contacts" "l" {
  list_id     = %[1]q
  source_file = "${path.module}/out/list.csv"
}
`, list))
	before := env.Emulator.Requests().ByMethod
	run("apply", "-auto-approve")
	after := env.Emulator.Requests().ByMethod
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		if after[m] != before[m] {
			t.Errorf("the import's apply sent %d %s requests; it must write nothing", after[m]-before[m], m)
		}
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the import is not empty (exit %d):\n%s", code, out)
	}

	// A path that cannot be written, and a list that does not exist, fail
	// the invocation naming the attribute.
	ws.Configure(env, fmt.Sprintf(`
action "rms_export_list_contacts_csv" "bad_path" {
  config {
    list_id     = %q
    output_path = "${path.module}/main.tf/list.csv"
  }
}

action "rms_export_list_contacts_csv" "no_list" {
  config {
    list_id     = "999999"
    output_path = "${path.module}/none.csv"
  }
}
`, list))
	for name, want := range map[string][]string{
		"bad_path": {"rms_export_list_contacts_csv: Unable to write the contacts file", "output_path", "nothing was written to the list"},
		"no_list":  {"rms_export_list_contacts_csv: Unable to list the contacts of list 999999"},
	} {
		out, code := ws.Run("apply", "-auto-approve", "-no-color", "-invoke=action.rms_export_list_contacts_csv."+name)
		if code == 0 || !acctest.Contains(out, want...) {
			t.Errorf("invoking %s (exit %d) does not fail saying %q:\n%s", name, code, want, out)
		}
	}
	if _, err := os.Stat(ws.Path("none.csv")); err == nil {
		t.Errorf("the invocation on a missing list wrote a file")
	}
}
