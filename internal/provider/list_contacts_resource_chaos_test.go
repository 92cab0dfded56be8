package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccChaosListContacts applies a map input (single calls) and a file
// input above the batch threshold (imports) while the emulator answers a
// fraction of requests with faults, some after acting: every contact must
// be there once with the values and statuses configured, and a second
// apply must find nothing to do. The map's list is shared by two
// resources: an exclusive map whose keep_ids names the other's contacts
// (max_unsubscribe = 0: it may unsubscribe nobody), and a map beside it. Its second case adds an outage: the
// service goes away (connections refused) while the apply waits for the
// file's import batch, which goes on behind it. The apply warns and keeps
// both resources, not tainted; once the service is back, the next apply
// imports nothing again (one ADD import uploaded in all) and ends with the
// list as configured and an empty plan.
func TestAccChaosListContacts(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, tc := range []struct {
		name   string
		outage bool
	}{
		{name: "faults"},
		{name: "outage during the batch wait", outage: true},
	} {
		t.Run(tc.name, func(t *testing.T) { chaosListContacts(t, tc.outage) })
	}
}

func chaosListContacts(t *testing.T, withOutage bool) {
	const rows = 300
	rate := chaosRate(t)
	if withOutage {
		// Half the faults where the outage is the subject: its step runs
		// with few retries (below), and at the full rate one apply in a
		// hundred met five faults in a row on some write before the outage.
		rate /= 2
	}
	opts := emulator.Options{Faults: chaosFaults(rate, chaosSeed(t)+19)}
	if withOutage {
		// The batch is still pending when the service goes away, and
		// finishes behind the outage.
		opts.BatchPendingFor = 2 * time.Second
	}
	env := acctest.NewEnv(t, opts)
	provider, dependsOn, firstname := chaosProvider(env), "", `"3"`
	var outage *acctest.Outage
	outageProvider := ""
	if withOutage {
		outage = acctest.NewOutage(t, env)
		// The steps after the outage, and the destroy that follows them
		// (300 writes), keep chaosProvider's 10 retries: at a 20% fault
		// rate, 4 retries leave one write in ten thousand to fail.
		provider = chaosProvider(outage.Env)
		// The outage step retries less, so that a refused poll ends the
		// wait in seconds; still enough for its few faulted writes.
		outageProvider = strings.Replace(provider, "max_retries         = 10", "max_retries         = 4", 1)
		// The file's list is written after the map's, so the outage
		// meets the batch wait alone.
		dependsOn = "depends_on      = [rms_list_contacts.m]"
		// The map names firstname rather than its id 3: an id is resolved
		// by reading the account's attributes, which the plan after the
		// apply, while the service is still away, cannot do.
		firstname = "firstname"
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "contacts.csv")
	content := "originalId,email,firstname\n"
	for i := range rows {
		content += fmt.Sprintf("f-%03d,f%d@example.com,File %d\n", i, i, i)
	}
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	resources := fmt.Sprintf(`
resource "rms_list" "m" {
  name                = "Chaos members"
  deletion_protection = false
}
resource "rms_list" "f" {
  name                = "Chaos file"
  deletion_protection = false
}
resource "rms_list_contacts" "m" {
  list_id         = rms_list.m.id
  exclusive       = true
  keep_ids        = keys(rms_list_contacts.s.contacts)
  max_unsubscribe = 0
  contacts = {
    for i in range(12) : "m-${i}" => {
      properties    = { email = "m${i}@example.com", %s = "Member ${i}" }
      mobile_status = "UNSUBSCRIBED"
    }
  }
}
resource "rms_list_contacts" "s" {
  list_id = rms_list.m.id
  contacts = {
    for i in range(6) : "s-${i}" => {
      properties   = { email = "s${i}@example.com" }
      email_status = "SUBSCRIBED"
    }
  }
}
resource "rms_list_contacts" "f" {
  list_id         = rms_list.f.id
  source_file     = %q
  batch_threshold = 50
  %s
}
`, firstname, file, dependsOn)
	config := provider + resources
	duplicates := -1
	// uploadedOnce: one ADD import of the file's list, uploaded once: an
	// import carried out twice would be a duplicate of work (and of events).
	uploadedOnce := func(s *terraform.State) error {
		var imps []struct {
			Type    string  `json:"type"`
			BatchID *string `json:"batchId"`
		}
		env.Inspect(t, "lists/"+s.RootModule().Resources["rms_list.f"].Primary.ID+"/imports?pageSize=1000", &imps)
		uploaded := 0
		for _, imp := range imps {
			if imp.Type == "ADD" && imp.BatchID != nil {
				uploaded++
			}
		}
		if duplicates = uploaded - 1; duplicates != 0 {
			return fmt.Errorf("%d ADD imports uploaded, want 1", uploaded)
		}
		return nil
	}
	members := func(s *terraform.State) error {
		m := listContactsOf(t, env, s.RootModule().Resources["rms_list.m"].Primary.ID)
		if len(m) != 18 {
			return fmt.Errorf("the map's list holds %d contacts, want 12 of the exclusive map and 6 of the one beside it", len(m))
		}
		for i := range 12 {
			c := m[fmt.Sprintf("m-%d", i)]
			if c.Properties["firstname"] != fmt.Sprintf("Member %d", i) || c.MobileStatus != "UNSUBSCRIBED" {
				return fmt.Errorf("m-%d is %+v", i, c)
			}
		}
		// The exclusive map's keep_ids names them: never unsubscribed.
		for i := range 6 {
			if c := m[fmt.Sprintf("s-%d", i)]; c.Status != "SUBSCRIBED" {
				return fmt.Errorf("s-%d, of the resource beside the exclusive one, is %+v", i, c)
			}
		}
		return nil
	}
	fileContacts := func(s *terraform.State) error {
		f := listContactsOf(t, env, s.RootModule().Resources["rms_list.f"].Primary.ID)
		if len(f) != rows {
			return fmt.Errorf("the file's list holds %d contacts, want %d", len(f), rows)
		}
		for i := range rows {
			c := f[fmt.Sprintf("f-%03d", i)]
			if c.Properties["firstname"] != fmt.Sprintf("File %d", i) || c.Status != "SUBSCRIBED" {
				return fmt.Errorf("f-%03d is %+v", i, c)
			}
		}
		return nil
	}
	check := resource.ComposeTestCheckFunc(uploadedOnce, members, fileContacts)
	steps := []resource.TestStep{
		{Config: config, Check: check},
		{Config: config, Check: check}, // nothing left to do
	}
	if withOutage {
		outageStep := resource.TestStep{
			PreConfig: func() { downAfterBatchLook(outage, 1) },
			Config:    outageProvider + resources,
			Check: resource.ComposeTestCheckFunc(
				notTainted("rms_list_contacts.m"), notTainted("rms_list_contacts.f"), uploadedOnce, members),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("rms_list_contacts.f", plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("rms_list_contacts.m", plancheck.ResourceActionNoop),
			}},
			ExpectNonEmptyPlan: true,
			ExpectError:        stillDown,
		}
		steps[0].PreConfig = func() { outage.Up(t) }
		steps = append([]resource.TestStep{outageStep}, steps...)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps:                    steps,
	})
	reportChaos(t, env, rate, duplicates, 0)
}

// TestAccChaosListContactsInterruptedExclusive interrupts an exclusive
// apply (SIGINT to terraform) while it waits for its UNSUBSCRIBE import,
// with faults on every request: the cut export's contacts end unsubscribed
// on both channels after the next apply, by one UNSUBSCRIBE import in all,
// and once the full export is back every contact is subscribed again and
// the plan is empty.
func TestAccChaosListContactsInterruptedExclusive(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	const rows, kept = 120, 60
	rate := chaosRate(t)
	clock := &heldClock{now: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Faults: chaosFaults(rate, chaosSeed(t)+23), Now: clock.Now, BatchPendingFor: time.Hour})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.ConfigureWith(chaosProvider(env), strings.Replace(exclusiveFileConfig(listID, "  max_unsubscribe = 1000\n"), "batch_threshold = 100", "batch_threshold = 40", 1))
	apply := func(what string) {
		t.Helper()
		if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
			t.Fatalf("%s exited %d:\n%s", what, code, out)
		}
	}
	ws.Write("contacts.csv", contactRows(rows))
	apply("the first apply")

	ws.Write("contacts.csv", contactRows(kept))
	clock.hold(true)
	run := ws.Start("apply", "-auto-approve", "-no-color")
	looks := env.Emulator.Requests().ByRoute[routeGetBatch]
	run.Until("the provider waits for the UNSUBSCRIBE import", func() bool {
		return unsubscribeImports(t, env, listID) == 1 && env.Emulator.Requests().ByRoute[routeGetBatch] > looks
	})
	run.Signal(os.Interrupt)
	run.Wait()
	clock.hold(false)
	apply("the apply of the cut export after the interrupt")
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(kept+1, rows), "UNSUBSCRIBED", "UNSUBSCRIBED")
	duplicates := unsubscribeImports(t, env, listID) - 1
	if duplicates != 0 {
		t.Errorf("%d UNSUBSCRIBE imports, want 1", duplicates+1)
	}

	ws.Write("contacts.csv", contactRows(rows))
	apply("the apply of the full export")
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, rows), "SUBSCRIBED", "SUBSCRIBED")
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the full export is not empty (exit %d):\n%s", code, out)
	}
	reportChaos(t, env, rate, duplicates, 0)
}
