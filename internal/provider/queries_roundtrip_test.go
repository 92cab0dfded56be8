package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccQuery_generateConfigRoundTrip is the promise of the list resources
// end to end, with the provider binary a user runs: against an account that
// existed before Terraform, `terraform query -generate-config-out` writes
// configuration and import blocks, `terraform plan` accepts them and plans
// only imports, `terraform apply` imports everything, and the next plan has
// no changes. terraform-plugin-testing has no step for -generate-config-out
// followed by plan and apply of the generated file, so this drives the CLI
// with terraform-exec.
func TestAccQuery_generateConfigRoundTrip(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	queryRoundTrip(t, emulator.Options{})
}

// The same round trip against a service that answers the other way on
// every open dimension at once (the emulator's `all` wire profile): ids as
// strings, times as epoch milliseconds, properties keyed by attribute id,
// no statuses, paging ignored, and the rest.
func TestAccQuery_generateConfigRoundTripWireAll(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	queryRoundTrip(t, emulator.Options{Wire: emulator.AllWire})
}

func queryRoundTrip(t *testing.T, opts emulator.Options) {
	tfPath := acctest.RequireCLI(t, "terraform query", "1.14.0", "").Path
	ctx := context.Background()
	work := t.TempDir()
	tf, err := tfexec.NewTerraform(work, tfPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()

	env := acctest.NewEnv(t, opts)
	a := preloadAccount(t, env)
	cliConfig, _ := acctest.DevOverrides(t, work)
	acctest.SetTerraformExecEnv(t, tf, cliConfig)

	writeFile(t, filepath.Join(work, "main.tf"), `terraform {
  required_providers {
    rms = { source = "rms-labs/rms" }
  }
}
`+env.ProviderBlock())
	// All of the account except most of the big list: a plan of 2,000
	// imports proves nothing more than one of 40 and takes minutes.
	writeFile(t, filepath.Join(work, "account.tfquery.hcl"), fmt.Sprintf(`
list "rms_project" "all" {
  provider = rms
}

list "rms_list" "all" {
  provider = rms
}

list "rms_contact" "newsletter" {
  provider = rms
  limit    = 40
  config {
    list_id = %q
  }
}

list "rms_contact" "customers" {
  provider = rms
  config {
    list_id = %q
  }
}

list "rms_webhook" "all" {
  provider = rms
}

list "rms_resource" "campaigns" {
  provider = rms
  config {
    collection = "campaigns"
  }
}

list "rms_resource" "filters" {
  provider = rms
  config {
    collection = "filters"
  }
}
`, a.bigList, a.smallList))

	// terraform query -generate-config-out
	msgs, err := tf.QueryJSON(ctx, tfexec.GenerateConfigOut("generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	totals := map[string]int{}
	for m := range msgs {
		if m.Err != nil {
			t.Fatalf("terraform query: %v", m.Err)
		}
		switch msg := m.Msg.(type) {
		case tfjson.ListCompleteMessage:
			totals[msg.ListComplete.Address] = msg.ListComplete.Total
		case nil:
		default:
			if msg.Level() == tfjson.Error {
				t.Errorf("terraform query: %s", msg.Message())
			}
		}
	}
	wantTotals := map[string]int{
		"list.rms_project.all": 3, "list.rms_list.all": 3, "list.rms_contact.newsletter": 40,
		"list.rms_contact.customers": 3, "list.rms_webhook.all": 2,
		"list.rms_resource.campaigns": 2, "list.rms_resource.filters": 1,
	}
	for addr, want := range wantTotals {
		if totals[addr] != want {
			t.Errorf("query found %d results for %s, want %d (all totals: %v)", totals[addr], addr, want, totals)
		}
	}
	generated, err := os.ReadFile(filepath.Join(work, "generated.tf"))
	if err != nil {
		t.Fatalf("terraform query wrote no configuration: %v", err)
	}
	const imports = 3 + 3 + 40 + 3 + 2 + 2 + 1
	if n := len(regexp.MustCompile(`(?m)^import \{`).FindAll(generated, -1)); n != imports {
		t.Errorf("generated.tf has %d import blocks, want %d", n, imports)
	}
	if n := len(regexp.MustCompile(`(?m)^  identity = \{`).FindAll(generated, -1)); n != imports {
		t.Errorf("generated.tf has %d import blocks by identity, want %d", n, imports)
	}
	// Compared with runs of spaces as one: terraform aligns the = signs by
	// the longest attribute name, which depends on the attributes present.
	oneSpace := regexp.MustCompile(` +`)
	for _, want := range []string{
		`resource "rms_contact" "customers_2"`, `original_id = "x/y z"`,
		`"weird key" = "x"`, `sender_email = "news@example.com"`,
	} {
		if !strings.Contains(oneSpace.ReplaceAllString(string(generated), " "), want) {
			t.Errorf("generated.tf lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("generated.tf:\n%s", generated)
		t.FailNow()
	}

	// terraform plan accepts it, and plans imports only.
	if _, err := tf.Plan(ctx, tfexec.Out("import.tfplan")); err != nil {
		t.Fatalf("terraform plan of the generated configuration: %v\n\ngenerated.tf:\n%s", err, generated)
	}
	plan, err := tf.ShowPlanFile(ctx, "import.tfplan")
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.ResourceChanges) != imports {
		t.Errorf("plan has %d resource changes, want %d imports", len(plan.ResourceChanges), imports)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Change.Importing == nil || rc.Change.Importing.Identity == nil || !rc.Change.Actions.NoOp() {
			t.Errorf("%s: planned %v (importing %+v), want an import by identity and no change", rc.Address, rc.Change.Actions, rc.Change.Importing)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// terraform apply imports, and the next plan has no changes.
	if err := tf.Apply(ctx, tfexec.DirOrPlan("import.tfplan")); err != nil {
		t.Fatalf("terraform apply: %v", err)
	}
	state, err := tf.Show(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if state.Values == nil || len(state.Values.RootModule.Resources) != imports {
		t.Fatalf("state after apply: want %d resources", imports)
	}
	for _, r := range state.Values.RootModule.Resources {
		if len(r.IdentityValues) == 0 {
			t.Errorf("%s has no identity in state", r.Address)
		}
	}
	changes, err := tf.Plan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if changes {
		p := filepath.Join(work, "after.tfplan")
		_, _ = tf.Plan(ctx, tfexec.Out(p))
		raw, _ := tf.ShowPlanFileRaw(ctx, p)
		t.Fatalf("the plan after importing has changes:\n%s", raw)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
