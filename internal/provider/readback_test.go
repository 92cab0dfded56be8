package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// What the emulator records of a list's imports and the account's batches,
// through the read-back listings of the service conventions.
type importRecord struct {
	ID      string  `json:"id"`
	BatchID *string `json:"batchId"`
}

type batchRecord struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"`
	ExportType string `json:"exportType"`
	Period     string `json:"period"`
}

func recordedImports(t *testing.T, env *acctest.Env, listID string) []importRecord {
	t.Helper()
	var all []importRecord
	env.Inspect(t, "lists/"+listID+"/imports?pageSize=1000", &all)
	return all
}

func recordedBatches(t *testing.T, env *acctest.Env, typ string) []batchRecord {
	t.Helper()
	var all []batchRecord
	env.Inspect(t, "batches?pageSize=1000&type="+typ, &all)
	return all
}

// wantOneImport checks that the emulator holds exactly one import of the
// list, uploaded once, and that the state holds its import and batch ids.
func wantOneImport(t *testing.T, env *acctest.Env, addr, listID string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		imps := recordedImports(t, env, listID)
		if len(imps) != 1 || imps[0].BatchID == nil {
			return fmt.Errorf("list %s holds imports %+v, want exactly one, uploaded", listID, imps)
		}
		batches := recordedBatches(t, env, "IMPORT")
		if len(batches) != 1 {
			return fmt.Errorf("the emulator holds %d IMPORT batches, want 1: %+v", len(batches), batches)
		}
		rs := s.RootModule().Resources[addr].Primary.Attributes
		if rs["import_id"] != imps[0].ID || rs["batch_id"] != *imps[0].BatchID || rs["batch_id"] != fmt.Sprint(batches[0].ID) {
			return fmt.Errorf("state holds import %s batch %s; the emulator import %s batch %s", rs["import_id"], rs["batch_id"], imps[0].ID, *imps[0].BatchID)
		}
		return nil
	}
}

// Both POSTs of an import (create, upload) are carried out and answered by
// a dropped connection: the provider reads the list's imports back, adopts
// the import and then its batch, and neither is made twice.
func TestAccListImportResource_actThenDropIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "lists/"}})
	list := importList(t, env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(importConfig(list, "ADD", heredocContent("originalId,firstname", "a,Ada", "b,Bob"), `identity_column = "originalId"`, `delimiter = ","`)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
				statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("affected"), knownvalue.Int64Exact(2)),
			},
			Check: resource.ComposeTestCheckFunc(
				wantOneImport(t, env, importAddr, list),
				wantContacts(t, env, list, map[string]string{"a": "firstname=Ada SUBSCRIBED", "b": "firstname=Bob SUBSCRIBED"}),
				func(*terraform.State) error {
					wantUploads(t, env, 1)
					if got := env.Emulator.Faults().ActThenDrop; got != 2 {
						return fmt.Errorf("%d POSTs acted then dropped, want 2 (create and upload)", got)
					}
					return nil
				}),
		}},
	})
}

// Only the upload is dropped after the emulator took the file: the import
// is read back with its batch, which is adopted; the file is not sent again.
func TestAccListImportResource_droppedUploadIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "lists/5/recipients"}})
	list := importList(t, env)
	if list != "5" {
		t.Fatalf("the first list has id %s; the fault targets list 5", list)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(importConfig(list, "ADD", heredocContent("originalId", "a"))),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(importAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
			},
			Check: resource.ComposeTestCheckFunc(
				wantOneImport(t, env, importAddr, list),
				func(*terraform.State) error { wantUploads(t, env, 1); return nil }),
		}},
	})
}

// The export start is carried out and answered by a dropped connection:
// the provider reads the STAT_EXPORT batches back and adopts the one of the
// same type and period; it starts no second export.
func TestAccStatisticsExportResource_actThenDropIsAdopted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "batches"}})
	// An export of another period, started just before, is no candidate.
	postDropped(t, env, "batches/exports/statistics", map[string]any{"exportType": "OPENS", "period": "LAST_DAY"})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(exportConfig("OPENS", "TODAY")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("FINISHED")),
			},
			Check: func(s *terraform.State) error {
				all := recordedBatches(t, env, "STAT_EXPORT")
				var today []batchRecord
				for _, b := range all {
					if b.Period == "TODAY" {
						today = append(today, b)
					}
				}
				if len(all) != 2 || len(today) != 1 {
					return fmt.Errorf("the emulator holds exports %+v, want the LAST_DAY one and exactly one for TODAY", all)
				}
				if got := attr(s, "batch_id"); got != fmt.Sprint(today[0].ID) {
					return fmt.Errorf("state holds batch %s, the emulator's export is %d", got, today[0].ID)
				}
				wantExportStarts(t, env, 2)
				return nil
			},
		}},
	})
}

// aheadClock runs an hour ahead of the provider's clock, so that every
// object the emulator makes counts as made "just now" by a read-back,
// however slowly the test runs.
func aheadClock() time.Time { return time.Now().Add(time.Hour) }

// postDropped sends a POST as an out-of-band user would, to an emulator
// that may act and then drop the connection: a dropped answer is expected.
func postDropped(t *testing.T, env *acctest.Env, path string, body any) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/rest/%d/%s", env.URL, env.CustomerID, path), bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(env.Username, env.Password)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("POST %s: status %d", path, resp.StatusCode)
		}
	}
}
