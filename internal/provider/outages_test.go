package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A wait that fails never restarts work: when the service goes away while
// an apply waits for a batch (or fetches a finished export's result), the
// create warns and keeps the resource with its batch id, not tainted; an
// update errors and keeps it too. The next apply once the service is back
// resumes the same batch: nothing is uploaded or exported twice, and the
// plan after it is empty.
//
// The outage is an acctest.Outage in front of the emulator: its port
// refuses connections from the trigger on, while the emulator and its
// batches go on behind it. It stays down through the step's own checks and
// its post-apply plans, so the refresh of the plan after the apply fails:
// that failure, not the apply's, is the step's expected error, and the
// non-refresh plan before it shows the resource updated in place (a tainted
// one would be replaced).

// batchLook matches the provider's reads of one batch.
var batchLook = regexp.MustCompile(`/batches/[0-9]+$`)

// downAfterBatchLook takes the service down right after the n-th read of a
// batch from now.
func downAfterBatchLook(o *acctest.Outage, n int) {
	o.Arm(acctest.OutageTrigger{Method: "GET", Path: batchLook, After: n})
}

// outageProvider reaches the emulator through the outage proxy, with one
// retry so that a refused poll ends the wait within seconds.
func outageProvider(o *acctest.Outage) string {
	return fmt.Sprintf(`
provider "rms" {
  base_url            = %q
  customer_id         = %d
  username            = %q
  password            = %q
  max_retries         = 1
  batch_poll_interval = "1s"
}
`, o.Env.URL, o.Env.CustomerID, o.Env.Username, o.Env.Password)
}

// stillDown is the error of a step whose apply succeeded (with warnings)
// while the service went away: the refresh of the plan after it, or, for
// a file input of rms_list_contacts (whose plan asks the service which
// columns name attributes), that plan itself; the steps check in the state
// that nothing was tainted.
var stillDown = regexp.MustCompile(`Error running post-apply (refresh plan|non-refresh plan[\s\S]*Unable to read the account's contact attributes)[\s\S]*connection refused`)

// notTainted checks that a resource is in the state, not tainted.
func notTainted(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		if rs.Primary.Tainted {
			return fmt.Errorf("%s is tainted: the next apply would replace it and start its batch again", addr)
		}
		return nil
	}
}

// keepBatchID records the batch id of addr at the first call and checks it
// is the same at every later one.
func keepBatchID(addr string) resource.TestCheckFunc {
	var first string
	return func(s *terraform.State) error {
		got := s.RootModule().Resources[addr].Primary.Attributes["batch_id"]
		switch {
		case got == "":
			return fmt.Errorf("%s has no batch_id", addr)
		case first == "":
			first = got
		case got != first:
			return fmt.Errorf("%s has batch_id %s, want %s: the batch was not resumed", addr, got, first)
		}
		return nil
	}
}

func TestAccListImportResource_outageDuringWaitResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &fakeClock{t: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	outage := acctest.NewOutage(t, env)
	list := importList(t, env)
	config := outageProvider(outage) + importConfig(list, "ADD", heredocContent("originalId,firstname", "x,Xavier", "y,Yves"))
	sameBatch := keepBatchID(importAddr)
	uploadedOnce := func(*terraform.State) error { wantUploads(t, env, 1); return nil }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create: the service goes away after the wait's first look
				PreConfig: func() { downAfterBatchLook(outage, 1) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("processed"), knownvalue.Int64Exact(0)),
				},
				Check: resource.ComposeTestCheckFunc(notTainted(importAddr), sameBatch, uploadedOnce),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(importAddr, plancheck.ResourceActionUpdate),
				}},
				ExpectNonEmptyPlan: true,
				ExpectError:        stillDown,
			},
			{ // update: back, then away again while the resumed wait runs
				PreConfig: func() {
					outage.Up(t)
					downAfterBatchLook(outage, 2) // the refresh's read, then the wait's first look
				},
				Config: config,
				ExpectError: acctest.ExpectErrorParts("List import", "has not finished", "could not be read", "connection refused",
					"Its id is kept in the state", "the next apply resumes waiting on the same batch; it does not start a new one"),
			},
			{ // back for good; the batch finished meanwhile
				PreConfig: func() { outage.Up(t); clock.Advance(2 * time.Hour) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(2)),
				},
				Check: resource.ComposeTestCheckFunc(sameBatch, uploadedOnce,
					wantContacts(t, env, list, map[string]string{"x": "firstname=Xavier SUBSCRIBED", "y": "firstname=Yves SUBSCRIBED"})),
			},
		},
	})
}

func TestAccStatisticsExportResource_outageDuringWaitResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &fakeClock{t: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	outage := acctest.NewOutage(t, env)
	out := filepath.Join(t.TempDir(), "opens.csv")
	config := outageProvider(outage) + exportConfig("OPENS", "LAST_DAY", fmt.Sprintf("output_path = %q", out))
	sameBatch := keepBatchID(exportAddr)
	startedOnce := func(*terraform.State) error { wantExportStarts(t, env, 1); return nil }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create: the service goes away after the wait's first look
				PreConfig: func() { downAfterBatchLook(outage, 1) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("sha256"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(notTainted(exportAddr), sameBatch, startedOnce),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ExpectNonEmptyPlan: true,
				ExpectError:        stillDown,
			},
			{ // back; the export finished meanwhile: its result is fetched
				PreConfig: func() { outage.Up(t); clock.Advance(2 * time.Hour) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.StringRegexp(resultURLPattern)),
				},
				Check: resource.ComposeTestCheckFunc(sameBatch, startedOnce,
					checkFile(out, [][]string{{"eventTime", "messageId", "listId", "originalId"}})),
			},
		},
	})
}

// The service goes away between the export's end and the fetch of its
// result: the same rule as for the wait, in create and in update.
func TestAccStatisticsExportResource_outageAtResultFetchResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{}) // batches finish at once
	outage := acctest.NewOutage(t, env)
	out := filepath.Join(t.TempDir(), "sent.csv")
	config := outageProvider(outage) + exportConfig("SENT", "TODAY", fmt.Sprintf("output_path = %q", out))
	sameBatch := keepBatchID(exportAddr)
	startedOnce := func(*terraform.State) error { wantExportStarts(t, env, 1); return nil }
	noFile := func(*terraform.State) error {
		switch _, err := os.Stat(out); {
		case err == nil:
			return fmt.Errorf("a file is at %s though the result was never fetched", out)
		case !os.IsNotExist(err):
			return fmt.Errorf("looking for the output file: %w", err)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create: the wait's first look says FINISHED; the result URL is refused
				PreConfig: func() { downAfterBatchLook(outage, 1) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(notTainted(exportAddr), sameBatch, startedOnce, noFile),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ExpectNonEmptyPlan: true,
				ExpectError:        stillDown,
			},
			{ // update: back, and away again before the result URL
				PreConfig: func() {
					outage.Up(t)
					downAfterBatchLook(outage, 2) // the refresh's read, then the wait's
				},
				Config: config,
				ExpectError: acctest.ExpectErrorParts("Unable to get the result URL of statistics export", "connection refused",
					"has finished on the service; its batch id is kept in the state", "it does not start a new one"),
			},
			{ // back for good: the same export's result is fetched
				PreConfig: func() { outage.Up(t) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.StringRegexp(resultURLPattern)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("sha256"), knownvalue.NotNull()),
				},
				Check: resource.ComposeTestCheckFunc(sameBatch, startedOnce),
			},
		},
	})
}

// rms_list_contacts above batch_threshold: the service goes away right
// after the ADD import's batch is seen FINISHED, so the read of the list
// that follows the imports is refused. The create warns and keeps the
// resource; the next apply imports nothing again.
func TestAccListContacts_outageAfterImportsResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const rows = 60
	env := acctest.NewEnv(t, emulator.Options{}) // batches finish at once
	outage := acctest.NewOutage(t, env)
	file := filepath.Join(t.TempDir(), "contacts.csv")
	content := "originalId,email,firstname\n"
	for i := range rows {
		content += fmt.Sprintf("c-%02d,c%d@example.com,Contact %d\n", i, i, i)
	}
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	const addr = "rms_list_contacts.c"
	config := outageProvider(outage) + fmt.Sprintf(`
resource "rms_list" "l" {
  name                = "Outage"
  deletion_protection = false
}
resource "rms_list_contacts" "c" {
  list_id         = rms_list.l.id
  source_file     = %q
  batch_threshold = 50
}
`, file)
	importedOnce := func(s *terraform.State) error {
		imps := recordedImports(t, env, s.RootModule().Resources["rms_list.l"].Primary.ID)
		if len(imps) != 1 || imps[0].BatchID == nil {
			return fmt.Errorf("the list has imports %+v, want one, uploaded", imps)
		}
		return nil
	}
	allThere := func(s *terraform.State) error {
		got := listContactsOf(t, env, s.RootModule().Resources["rms_list.l"].Primary.ID)
		if len(got) != rows {
			return fmt.Errorf("the list holds %d contacts, want %d", len(got), rows)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { downAfterBatchLook(outage, 1) },
				Config:    config,
				Check:     resource.ComposeTestCheckFunc(notTainted(addr), importedOnce, allThere),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ExpectNonEmptyPlan: true,
				ExpectError:        stillDown,
			},
			{
				PreConfig: func() { outage.Up(t) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs(addr, tfjsonpath.New("service_sha256"), addr, tfjsonpath.New("desired_sha256"), compare.ValuesSame()),
				},
				Check: resource.ComposeTestCheckFunc(importedOnce, allThere),
			},
		},
	})
}
