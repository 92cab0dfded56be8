package provider_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Resources that share a list (issue 42, case 2). The refresh of each
// keeps its listing for its own plan; plans of one configuration against
// one service say the same thing however Terraform orders them.

// planDiagnostics are the diagnostics a plan printed, each as one block of
// text, sorted: Terraform prints those of resources planned concurrently in
// the order they ended.
func planDiagnostics(out string) []string {
	var blocks []string
	for _, b := range strings.Split(out, "╷")[1:] {
		b, _, _ = strings.Cut(b, "╵")
		blocks = append(blocks, strings.TrimSpace(b))
	}
	sort.Strings(blocks)
	return blocks
}

// planChanges is the part of a plan's output that lists the changes
// ("Terraform will perform..." up to the diagnostics).
var planChanges = regexp.MustCompile(`(?s)(Terraform will perform.*?Plan:[^\n]*|No changes\.)`)

// Two non-exclusive rms_list_contacts on one list (a map and a file), with
// drift on both sides: five plans in a row say the same thing, and each
// names its own drift.
func TestAccListContactsSharedListPlansAgree(t *testing.T) {
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	w := acctest.NewWorkspace(t)
	csv := "originalId,email,email_status\n"
	for i := 1; i <= 10; i++ {
		csv += fmt.Sprintf("f-%02d,f-%02d@example.com,SUBSCRIBED\n", i, i)
	}
	w.Write("contacts.csv", csv)
	var m strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&m, "    \"m-%02d\" = { properties = { email = \"m-%02d@example.com\", firstname = \"M%d\" }, email_status = \"SUBSCRIBED\" }\n", i, i, i)
	}
	w.Configure(env, fmt.Sprintf(`
resource "rms_list_contacts" "file" {
  list_id     = %q
  source_file = "contacts.csv"
}

resource "rms_list_contacts" "map" {
  list_id  = %q
  contacts = {
%s  }
}
`, listID, listID, m.String()))
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("apply failed:\n%s", out)
	}
	// Drift on both sides: a recipient of each opts out, a property of
	// each is changed by hand.
	for _, id := range []string{"f-03", "m-04"} {
		env.MustDo(t, "PUT", "lists/"+listID+"/contacts/"+id+"/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	}
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/f-05", map[string]any{"properties": map[string]any{"email": "changed@example.com"}}, nil)
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/m-06", map[string]any{"properties": map[string]any{"firstname": "Changed"}}, nil)

	var first string
	for i := range 5 {
		out, code := w.Run("plan", "-no-color")
		if code != 0 {
			t.Fatalf("plan %d failed:\n%s", i+1, out)
		}
		got := strings.Join(planChanges.FindAllString(out, -1), "\n") + "\n" + strings.Join(planDiagnostics(out), "\n----\n")
		if i == 0 {
			first = got
			// Each resource names its own drift.
			if !acctest.Contains(out, "f-05", "m-06", "f-03", "m-04") {
				t.Fatalf("plan 1 does not name the drift of both resources:\n%s", out)
			}
			continue
		}
		if got != first {
			t.Fatalf("plan %d differs from plan 1:\n--- plan 1:\n%s\n--- plan %d:\n%s", i+1, first, i+1, got)
		}
	}
}
