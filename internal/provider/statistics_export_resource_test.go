package provider_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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

const (
	exportAddr       = "rms_statistics_export.test"
	routeStartExport = "POST /rest/{customerid}/batches/exports/statistics"
	routeGetBatch    = "GET /rest/{customerid}/batches/{batchId}"
)

var (
	sha256Pattern    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	numericPattern   = regexp.MustCompile(`^[0-9]+$`)
	resultURLPattern = regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/objectstore/[0-9a-f]{32}$`)
)

// exportConfig is an rms_statistics_export; extra lines go inside the block.
func exportConfig(exportType, period string, extra ...string) string {
	body := fmt.Sprintf("  export_type = %q\n  period      = %q\n", exportType, period)
	for _, e := range extra {
		body += "  " + e + "\n"
	}
	return "resource \"rms_statistics_export\" \"test\" {\n" + body + "}\n"
}

// exportStarts counts the exports the emulator was asked to start.
func exportStarts(env *acctest.Env) int64 {
	return env.Emulator.Requests().ByRoute[routeStartExport]
}

func wantExportStarts(t *testing.T, env *acctest.Env, want int64) {
	t.Helper()
	if got := exportStarts(env); got != want {
		t.Errorf("the emulator started %d exports, want %d", got, want)
	}
}

// attr reads an attribute of the export from state.
func attr(s *terraform.State, name string) string {
	return s.RootModule().Resources[exportAddr].Primary.Attributes[name]
}

// checkFile checks the file at path: its rows, and that sha256 and size in
// state describe it.
func checkFile(path string, wantRows [][]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		raw, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading the exported file: %w", err)
		}
		rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
		if err != nil {
			return fmt.Errorf("the exported file is not CSV: %w", err)
		}
		if diff := cmp.Diff(wantRows, rows); diff != "" {
			return fmt.Errorf("exported file (-want +got):\n%s", diff)
		}
		sum := sha256.Sum256(raw)
		if got := attr(s, "sha256"); got != hex.EncodeToString(sum[:]) {
			return fmt.Errorf("sha256 in state %s, file has %x", got, sum)
		}
		if got := attr(s, "size"); got != fmt.Sprint(len(raw)) {
			return fmt.Errorf("size in state %s, file has %d bytes", got, len(raw))
		}
		if info, err := os.Stat(path); err == nil && info.Mode().Perm() != 0o600 {
			return fmt.Errorf("file mode %v, want 0600", info.Mode().Perm())
		}
		return nil
	}
}

func TestAccStatisticsExportResource_lifecycle(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var spring, summer map[string]any
	env.MustDo(t, "POST", "projects", map[string]any{"name": "Spring"}, &spring)
	env.MustDo(t, "POST", "projects", map[string]any{"name": "Summer, sales"}, &summer)
	row := func(p map[string]any) []string {
		return []string{fmt.Sprint(p["id"]), fmt.Sprint(p["name"]), fmt.Sprint(p["dateCreated"]), fmt.Sprint(p["dateModified"])}
	}
	wantRows := [][]string{{"projectId", "name", "dateCreated", "dateModified"}, row(spring), row(summer)}

	dir := t.TempDir()
	out := filepath.Join(dir, "exports", "projects.csv") // the directory is created
	moved := filepath.Join(dir, "moved.csv")
	config := func(path, run string) string {
		return env.Config(exportConfig("PROJECTS", "LAST_WEEK", fmt.Sprintf("output_path = %q", path), fmt.Sprintf("triggers = { run = %q }", run)))
	}
	var batchID string
	sameBatch := func(s *terraform.State) error {
		if got := attr(s, "batch_id"); got != batchID {
			return fmt.Errorf("batch_id %s, want the original %s: a new export was started", got, batchID)
		}
		return nil
	}
	updatePlanned := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate)}}

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // run the export and download its file
				Config: config(out, "1"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("total"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("batch_id"), knownvalue.StringRegexp(numericPattern)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("sha256"), knownvalue.StringRegexp(sha256Pattern)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.StringRegexp(resultURLPattern)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("started_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("finished_at"), knownvalue.NotNull()),
					statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("id"), exportAddr, tfjsonpath.New("batch_id"), compare.ValuesSame()),
					statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("output_sha256"), exportAddr, tfjsonpath.New("sha256"), compare.ValuesSame()),
				},
				Check: resource.ComposeTestCheckFunc(checkFile(out, wantRows), func(s *terraform.State) error {
					batchID = attr(s, "batch_id")
					wantExportStarts(t, env, 1)
					return nil
				}),
			},
			{ // the local file was deleted: downloaded again, same export
				PreConfig:         func() { mustRemove(t, out) },
				Config:            config(out, "1"),
				ConfigPlanChecks:  updatePlanned,
				Check:             resource.ComposeTestCheckFunc(checkFile(out, wantRows), sameBatch),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("output_sha256"), exportAddr, tfjsonpath.New("sha256"), compare.ValuesSame())},
			},
			{ // the local file was changed: downloaded again
				PreConfig:        func() { mustWrite(t, out, "tampered\n") },
				Config:           config(out, "1"),
				ConfigPlanChecks: updatePlanned,
				Check:            resource.ComposeTestCheckFunc(checkFile(out, wantRows), sameBatch),
			},
			{ // a new path: downloaded there, the old file left alone
				Config:           config(moved, "1"),
				ConfigPlanChecks: updatePlanned,
				Check: resource.ComposeTestCheckFunc(checkFile(moved, wantRows), sameBatch, func(*terraform.State) error {
					if _, err := os.Stat(out); err != nil {
						return fmt.Errorf("the file at the old path was touched: %w", err)
					}
					wantExportStarts(t, env, 1)
					return nil
				}),
			},
			{ // triggers changed: a new export replaces the old one
				Config: config(moved, "2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(checkFile(moved, wantRows), func(s *terraform.State) error {
					if attr(s, "batch_id") == batchID {
						return fmt.Errorf("changing triggers kept batch %s", batchID)
					}
					batchID = attr(s, "batch_id")
					wantExportStarts(t, env, 2)
					return nil
				}),
			},
			{ // import by <batch_id>/<export_type>/<period>
				ResourceName:      exportAddr,
				ImportState:       true,
				ImportStateIdFunc: func(*terraform.State) (string, error) { return batchID + "/PROJECTS/LAST_WEEK", nil },
				ImportStateVerify: true,
				// The import cannot know the local file, the triggers or a
				// result URL; the next apply fetches the URL and the file.
				ImportStateVerifyIgnore: []string{"output_path", "output_sha256", "sha256", "size", "result_url", "triggers", "timeouts"},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			// Destroy only forgets: the batch and the file are still there.
			if status := env.Do(t, "GET", "batches/"+batchID, nil, nil); status != 200 {
				t.Errorf("GET batches/%s after destroy answered %d", batchID, status)
			}
			if _, err := os.Stat(moved); err != nil {
				t.Errorf("destroy removed the downloaded file: %v", err)
			}
			return nil
		},
	})
}

// A batch that takes several polls, without output_path, read back through
// the rms_batch data source.
func TestAccStatisticsExportResource_severalPolls(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{BatchPendingFor: time.Second, BatchMinDuration: 1500 * time.Millisecond})
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Customers"}, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(exportConfig("LISTS", "TODAY"), `
data "rms_batch" "test" {
  id = rms_statistics_export.test.batch_id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("total"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.StringRegexp(resultURLPattern)),
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("sha256"), knownvalue.Null()),
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("size"), knownvalue.Null()),
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("output_sha256"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("type"), knownvalue.StringExact("STAT_EXPORT")),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("customer_id"), knownvalue.Int64Exact(env.CustomerID)),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("total"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("processed"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("affected"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("failed"), knownvalue.Int64Exact(0)),
				statecheck.ExpectKnownValue("data.rms_batch.test", tfjsonpath.New("error_message"), knownvalue.Null()),
				statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("finished_at"), "data.rms_batch.test", tfjsonpath.New("finished_at"), compare.ValuesSame()),
				statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("started_at"), "data.rms_batch.test", tfjsonpath.New("started_at"), compare.ValuesSame()),
			},
			Check: func(*terraform.State) error {
				// The batch runs 2.5s; with 1s polls the provider looked at
				// least three times (at 0, 1, 2 and 3 seconds), never more
				// than the elapsed time allows.
				if polls := env.Emulator.Requests().ByRoute[routeGetBatch]; polls < 3 {
					t.Errorf("the batch was polled %d times, want at least 3", polls)
				}
				wantExportStarts(t, env, 1)
				return nil
			},
		}},
	})
}

// fakeClock drives the emulator's batches from the test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// A create whose timeout passes keeps the batch id (with a warning) and is
// not tainted; the next apply resumes waiting on the same batch (here it
// times out again, an error), and once the batch has finished an apply
// completes it. The service is asked for one export only.
func TestAccStatisticsExportResource_timeoutResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &fakeClock{t: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	out := filepath.Join(t.TempDir(), "opens.csv")
	config := func(timeouts string) string {
		return env.Config(exportConfig("OPENS", "LAST_DAY", fmt.Sprintf("output_path = %q", out), "timeouts {\n    "+timeouts+"\n  }"))
	}
	var batchID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // the create timeout passes: a warning, the batch id is kept
				Config:             config(`create = "2s"`),
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("batch_id"), knownvalue.StringRegexp(numericPattern)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("sha256"), knownvalue.Null()),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("finished_at"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					// Resumed in place, not replaced: the resource is not tainted.
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(s *terraform.State) error {
					batchID = attr(s, "batch_id")
					if _, err := os.Stat(out); !os.IsNotExist(err) {
						t.Errorf("a file exists at output_path before the export finished: %v", err)
					}
					return nil
				},
			},
			{ // resuming, the update timeout passes too: an error naming the batch
				Config: config(`create = "2s"` + "\n    " + `update = "2s"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ExpectError: acctest.ExpectErrorParts("Statistics export", "has not finished",
					"it did not finish before the time limit (last seen PENDING", "The batch id is kept in the state",
					"The next apply resumes waiting on the same batch; it does not start a new one"),
			},
			{ // the batch has finished meanwhile: this apply completes it
				PreConfig: func() { clock.Advance(2 * time.Hour) },
				Config:    config(`create = "2s"` + "\n    " + `update = "2s"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("result_url"), knownvalue.StringRegexp(resultURLPattern)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("finished_at"), knownvalue.NotNull()),
					statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("output_sha256"), exportAddr, tfjsonpath.New("sha256"), compare.ValuesSame()),
				},
				Check: resource.ComposeTestCheckFunc(
					checkFile(out, [][]string{{"eventTime", "messageId", "listId", "originalId"}}),
					func(s *terraform.State) error {
						if got := attr(s, "batch_id"); got != batchID {
							t.Errorf("batch_id %s, want %s: the wait was not resumed", got, batchID)
						}
						wantExportStarts(t, env, 1)
						return nil
					}),
			},
		},
	})
}

// A batch that fails gives an error; the failed export is then replaced by
// a new one on the next apply.
func TestAccStatisticsExportResource_failedBatch(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	var exports atomic.Int64
	env := acctest.NewEnv(t, emulator.Options{BatchError: func(string) string {
		if exports.Add(1) == 1 {
			return "the statistics store is unavailable"
		}
		return ""
	}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(exportConfig("SENT", "TODAY")),
				ExpectError: acctest.ExpectErrorParts("Statistics export failed", "(STAT_EXPORT) failed on the service: the statistics store is unavailable", "The next apply starts a new export"),
			},
			{
				Config: env.Config(exportConfig("SENT", "TODAY")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
				},
				Check: func(*terraform.State) error { wantExportStarts(t, env, 2); return nil },
			},
		},
	})
}

func mustRemove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
