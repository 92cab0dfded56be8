package provider_test

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// chaosRate is the fraction of requests answered with a fault: 0.2 under
// `make test-chaos` (the only target that runs these tests), low when one
// runs them by hand without RMS_CHAOS_RATE, so that a quick look stays quick.
func chaosRate(t *testing.T) float64 {
	raw := os.Getenv("RMS_CHAOS_RATE")
	if raw == "" {
		return 0.05
	}
	r, err := strconv.ParseFloat(raw, 64)
	if err != nil || r < 0 || r > 1 {
		t.Fatalf("RMS_CHAOS_RATE=%q is not a fraction between 0 and 1", raw)
	}
	return r
}

// chaosFaults are the faults a shared service shows now and then: rate
// limiting, gateway failures and dropped connections, plus creates that are
// carried out but never answered.
func chaosFaults(rate float64, seed uint64) emulator.FaultOptions {
	return emulator.FaultOptions{
		Rate:            rate,
		Kinds:           []string{emulator.FaultTooManyRequests, emulator.FaultBadGateway, emulator.FaultUnavailable, emulator.FaultGatewayTimeout, emulator.FaultDrop},
		RetryAfter:      time.Second,
		Seed:            seed,
		ActThenDropRate: rate,
	}
}

func chaosProvider(env *acctest.Env) string {
	return fmt.Sprintf(`
provider "rms" {
  base_url            = %q
  customer_id         = %d
  username            = %q
  password            = %q
  max_retries         = 10
  batch_poll_interval = "1s"
}
`, env.URL, env.CustomerID, env.Username, env.Password)
}

// The managed resources that recognise their own interrupted creates (see
// the provider guide's Retries section), with every kind of write.
const chaosConfig = `
resource "rms_project" "p" {
  name        = "Chaos project"
  description = "survives faults"
}
resource "rms_list" "l" {
  name                = "Chaos list"
  deletion_protection = false
}
resource "rms_contact" "c" {
  count       = 3
  list_id     = rms_list.l.id
  original_id = "c-${count.index}"
  properties  = { email = "c${count.index}@example.com", firstname = "Name ${count.index}" }
  mobile_status = "UNSUBSCRIBED"
}
resource "rms_resource" "campaign" {
  collection = "campaigns"
  body       = { name = "Chaos campaign", budget = 10, tags = ["a", "b"] }
}
resource "rms_webhook" "w" {
  url    = "https://hooks.example.com/chaos"
  events = ["message.sent"]
}
`

// chaosCounts is what the emulator must hold after the apply: one object
// per resource, none twice.
var chaosCounts = map[string]int{"projects": 1, "lists": 1, "campaigns": 1, "webhooks": 1}

// TestAccChaos applies, re-plans (no changes), refreshes and destroys the
// resources against an emulator that answers a fraction of requests with
// faults, then checks the emulator's own record: no object created twice,
// nothing left after destroy.
func TestAccChaos(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	rate := chaosRate(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: chaosFaults(rate, chaosSeed(t))})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: chaosProvider(env) + chaosConfig,
				Check:  func(*terraform.State) error { return checkChaosCounts(t, env) },
			},
			{ // a second apply of the same configuration changes nothing
				Config: chaosProvider(env) + chaosConfig,
				Check:  func(*terraform.State) error { return checkChaosCounts(t, env) },
			},
		},
		CheckDestroy: func(*terraform.State) error {
			leftovers := 0
			for coll := range chaosCounts {
				var left []map[string]any
				env.Inspect(t, coll, &left)
				leftovers += len(left)
			}
			reportChaos(t, env, rate, 0, leftovers)
			if leftovers != 0 {
				return fmt.Errorf("%d objects left after destroy", leftovers)
			}
			return nil
		},
	})
}

// TestAccChaosBatches runs an import and an export while the emulator fails
// a fraction of all requests: the POSTs that create the import, upload its
// file and start the export (faults before acting, and acts whose answer is
// dropped), batch polls, refreshes and the result download. The emulator's
// record must then hold exactly one import, uploaded once, one IMPORT batch
// and one STAT_EXPORT batch, the ones in the state.
func TestAccChaosBatches(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	rate := chaosRate(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: chaosFaults(rate, chaosSeed(t)+7)})
	out := t.TempDir() + "/lists.csv"
	config := chaosProvider(env) + fmt.Sprintf(`
resource "rms_list" "l" {
  name                = "Chaos imports"
  deletion_protection = false
}
resource "rms_list_import" "i" {
  list_id = rms_list.l.id
  type    = "ADD"
  content = "originalId,email\nr-1,r1@example.com\nr-2,r2@example.com\n"
}
resource "rms_statistics_export" "e" {
  export_type = "LISTS"
  period      = "TODAY"
  output_path = %q
  depends_on  = [rms_list_import.i]
}
`, out)
	duplicates, leftovers := -1, -1
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(s *terraform.State) error {
				listID := s.RootModule().Resources["rms_list.l"].Primary.ID
				var contacts []map[string]any
				env.Inspect(t, "lists/"+listID+"/contacts", &contacts)
				if len(contacts) != 2 {
					return fmt.Errorf("the list holds %d contacts after the import, want 2", len(contacts))
				}
				raw, err := os.ReadFile(out)
				if err != nil {
					return fmt.Errorf("export file: %w", err)
				}
				if !strings.Contains(string(raw), "Chaos imports") {
					return fmt.Errorf("export file: %q", raw)
				}
				imps := recordedImports(t, env, listID)
				imports, exports := recordedBatches(t, env, "IMPORT"), recordedBatches(t, env, "STAT_EXPORT")
				duplicates = max(len(imps)-1, 0) + max(len(imports)-1, 0) + max(len(exports)-1, 0)
				leftovers = 0
				for _, imp := range imps {
					if imp.BatchID == nil {
						leftovers++ // an import made and never uploaded
					}
				}
				if duplicates != 0 || leftovers != 0 || len(imps) != 1 || len(imports) != 1 || len(exports) != 1 {
					return fmt.Errorf("the emulator holds imports %+v, IMPORT batches %+v and exports %+v; want exactly one of each, uploaded", imps, imports, exports)
				}
				state := s.RootModule().Resources
				if got := state["rms_list_import.i"].Primary.Attributes["batch_id"]; got != *imps[0].BatchID {
					return fmt.Errorf("state holds import batch %s, the emulator %s", got, *imps[0].BatchID)
				}
				if got := state["rms_statistics_export.e"].Primary.Attributes["batch_id"]; got != fmt.Sprint(exports[0].ID) {
					return fmt.Errorf("state holds export batch %s, the emulator %d", got, exports[0].ID)
				}
				return nil
			},
		}},
	})
	reportChaos(t, env, rate, duplicates, leftovers)
}

func checkChaosCounts(t *testing.T, env *acctest.Env) error {
	for coll, want := range chaosCounts {
		var all []map[string]any
		env.Inspect(t, coll, &all)
		if len(all) != want {
			return fmt.Errorf("%s: the emulator holds %d, want %d (an object created twice?): %v", coll, len(all), want, all)
		}
	}
	var lists []map[string]any
	env.Inspect(t, "lists", &lists)
	var contacts []map[string]any
	env.Inspect(t, fmt.Sprintf("lists/%v/contacts", lists[0]["id"]), &contacts)
	if len(contacts) != 3 {
		return fmt.Errorf("the list holds %d contacts, want 3", len(contacts))
	}
	for _, c := range contacts {
		if c["mobileStatus"] != "UNSUBSCRIBED" {
			return fmt.Errorf("contact %v has mobileStatus %v after the apply", c["originalId"], c["mobileStatus"])
		}
	}
	return nil
}

// reportChaos prints the figures of the run (go test -v shows them).
func reportChaos(t *testing.T, env *acctest.Env, rate float64, duplicates, leftovers int) {
	f := env.Emulator.Faults()
	kinds := make([]string, 0, len(f.Injected))
	total := int64(0)
	for k, n := range f.Injected {
		kinds = append(kinds, fmt.Sprintf("%s=%d", k, n))
		total += n
	}
	sort.Strings(kinds)
	t.Logf("chaos %s: fault rate %.2f, requests %d, faults injected %d (%s), acted-then-dropped %d, duplicates %d, leftovers %d",
		t.Name(), rate, env.Emulator.Requests().Total, total, strings.Join(kinds, " "), f.ActThenDrop, duplicates, leftovers)
}

// chaosSeed makes a run reproducible; RMS_CHAOS_SEED picks another sequence.
func chaosSeed(t *testing.T) uint64 {
	raw := os.Getenv("RMS_CHAOS_SEED")
	if raw == "" {
		return 20261122
	}
	s, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		t.Fatalf("RMS_CHAOS_SEED=%q is not a number", raw)
	}
	return s
}
