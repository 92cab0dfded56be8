package provider_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sync/atomic"
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

const listContactsFileAddr = "rms_list_contacts.f"

// wantFileRows checks that the list holds exactly the n contacts of
// fileRows with first names from name.
func wantFileRows(t *testing.T, env *acctest.Env, listID string, n int, name func(i int) string) error {
	got := listContactsOf(t, env, listID)
	if len(got) != n {
		return fmt.Errorf("the list holds %d contacts, want %d", len(got), n)
	}
	for i := range n {
		c := got[fmt.Sprintf("r-%04d", i)]
		if c.Properties["firstname"] != name(i) || c.Status != "SUBSCRIBED" {
			return fmt.Errorf("r-%04d is %+v, want firstname %q, SUBSCRIBED", i, c, name(i))
		}
	}
	return nil
}

func defaultName(i int) string { return fmt.Sprintf("Name %d", i) }

// TestAccListContactsTimeoutResumes: an apply above batch_threshold whose
// ADD import does not finish within timeouts.create ends with a warning and
// an untainted resource; the next apply waits for the same batch (kept in
// private state) before anything else, and uploads no second import.
func TestAccListContactsTimeoutResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const n = 5
	// The emulator's clock stands still (the batch stays PENDING) until
	// armed; armed, it jumps once the batch is polled again.
	// Once the resumed apply is checked, it runs an hour per reading, so
	// that destroy's UNSUBSCRIBE import finishes too.
	clock := &pollClock{base: time.Now().UTC()}
	var racing atomic.Int64
	now := func() time.Time {
		if h := racing.Load(); h > 0 {
			return clock.base.Add(time.Duration(racing.Add(1)) * time.Hour)
		}
		return clock.Now()
	}
	env := acctest.NewEnv(t, emulator.Options{Now: now, BatchPendingFor: time.Hour})
	clock.env = env
	listID := newTestList(t, env)
	file := filepath.Join(t.TempDir(), "contacts.csv")
	writeFile(t, file, fileRows(n, nil))
	cfg := env.Config(fmt.Sprintf(`
resource "rms_list_contacts" "f" {
  list_id         = %q
  source_file     = %q
  delimiter       = ";"
  batch_threshold = 2
  timeouts {
    create = "2s"
    delete = "1m"
  }
}
`, listID, file))
	var polls int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				ExpectNonEmptyPlan: true, // the batch has not run: the next plan writes the rest
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					// an update in place: a tainted resource would be replaced
					plancheck.ExpectResourceAction(listContactsFileAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(listContactsFileAddr, tfjsonpath.New("contact_count"), knownvalue.Int64Exact(n)),
					statecheck.ExpectKnownValue(listContactsFileAddr, tfjsonpath.New("service_sha256"), knownvalue.StringExact("")),
				},
				Check: func(s *terraform.State) error {
					if rs := s.RootModule().Resources[listContactsFileAddr]; rs == nil || rs.Primary.Tainted {
						return fmt.Errorf("the resource is missing or tainted after a wait that timed out: %+v", rs)
					}
					if got := uploads(env); got != 1 {
						return fmt.Errorf("%d import uploads, want 1 (ADD)", got)
					}
					if got := listContactsOf(t, env, listID); len(got) != 0 {
						return fmt.Errorf("the batch was to stay PENDING, but the list holds %d contacts", len(got))
					}
					polls = env.Emulator.Requests().ByRoute[routeGetBatch]
					return nil
				},
			},
			{
				// The refresh sees the list still empty (the batch PENDING);
				// the apply's first look at the kept batch finds it FINISHED.
				PreConfig: func() { clock.arm(1) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(listContactsFileAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs(listContactsFileAddr, tfjsonpath.New("desired_sha256"), listContactsFileAddr, tfjsonpath.New("service_sha256"), compare.ValuesSame()),
				},
				Check: func(*terraform.State) error {
					racing.Store(3) // first, so that destroy ends even when a check fails
					if got := env.Emulator.Requests().ByRoute[routeGetBatch]; got <= polls {
						return fmt.Errorf("the apply did not poll the kept batch (%d batch reads before and after)", got)
					}
					if got := uploads(env); got != 1 {
						return fmt.Errorf("%d import uploads, want 1: the apply started a second import instead of waiting for the first", got)
					}
					if got := len(recordedBatches(t, env, "IMPORT")); got != 1 {
						return fmt.Errorf("%d import batches, want 1", got)
					}
					return wantFileRows(t, env, listID, n, defaultName)
				},
			},
		},
	})
}

// TestAccListContactsFileChangedAfterPlan: a source file rewritten after
// the plan (here by a plan check, which runs between plan and apply) is
// refused, and nothing is written; the next plan and apply take the file
// as it now is. The refusal is the provider's own (see the step).
func TestAccListContactsFileChangedAfterPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const n = 3
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	file := filepath.Join(t.TempDir(), "contacts.csv")
	writeFile(t, file, fileRows(n, nil))
	cfg := env.Config(listContactsFileConfig(listID, file))
	named := func(prefix string) func(i int, first, status *string) {
		return func(i int, first, _ *string) { *first = fmt.Sprintf("%s %d", prefix, i) }
	}
	var writes int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					writes = contactWrites(env)
					return wantFileRows(t, env, listID, n, defaultName)
				},
			},
			{
				PreConfig: func() { writeFile(t, file, fileRows(n, named("Planned"))) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(listContactsFileAddr, plancheck.ResourceActionUpdate),
					planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
						writeFile(t, file, fileRows(n, named("Unreviewed")))
					}),
				}},
				// Terraform re-plans each resource just before applying it,
				// from the plan's refreshed state: the digest the refresh kept
				// in private state reaches that plan, which refuses the file
				// in the provider's words before Terraform's own check
				// (list_contacts_file_digest.go). The apply writes nothing.
				ExpectError: regexp.MustCompile(`(?s)Source file changed since the plan.*changed\s+since\s+the\s+plan\s+was\s+made.*Nothing\s+was\s+written\s+to\s+list`),
			},
			{
				PreConfig: func() {
					if got := contactWrites(env); got != writes {
						t.Errorf("the refused apply made %d contact writes, want none", got-writes)
					}
					if err := wantFileRows(t, env, listID, n, defaultName); err != nil {
						t.Errorf("after the refused apply: %v", err)
					}
				},
				Config: cfg,
				Check: func(*terraform.State) error {
					return wantFileRows(t, env, listID, n, func(i int) string { return fmt.Sprintf("Unreviewed %d", i) })
				},
			},
		},
	})
}

// TestAccListContactsImportByIdentity: an import block with
// `identity = { list_id = ... }` takes a list whose contacts exist; the
// apply writes only the one that differs, and the identity is the list.
func TestAccListContactsImportByIdentity(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	acctest.RequireCLI(t, "import by identity", "1.12.0", "") // skips below, before an emulator starts
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	contacts := map[string]listContact{
		"a": {props: map[string]string{"email": "a@example.com", "firstname": "A"}},
		"b": {props: map[string]string{"email": "b@example.com", "firstname": "B"}},
	}
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "a", "properties": contacts["a"].props}, nil)
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "b", "properties": map[string]any{"email": "b@example.com", "firstname": "Elsewhere"}}, nil)
	importBlock := func(id string) string {
		return fmt.Sprintf("import {\n  to       = rms_list_contacts.c\n  identity = { list_id = %q }\n}\n", id)
	}
	writes := contactWrites(env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(importBlock("members"), listContactsConfig(listID, contacts, "")),
				ExpectError: acctest.ExpectErrorParts("Invalid import id", `got "members"`),
			},
			{
				Config: env.Config(importBlock(listID), listContactsConfig(listID, contacts, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity("rms_list_contacts.c", map[string]knownvalue.Check{"list_id": knownvalue.StringExact(listID)}),
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("id"), knownvalue.StringExact(listID)),
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(2)),
				},
				Check: func(*terraform.State) error {
					if n := contactWrites(env) - writes; n != 1 {
						return fmt.Errorf("the apply after the import made %d contact writes, want 1 (b's first name)", n)
					}
					if got := getContact(t, env, listID, "b").Properties["firstname"]; got != "B" {
						return fmt.Errorf("b's firstname is %q, want B", got)
					}
					return nil
				},
			},
		},
	})
}

// TestAccListContactsNoRefresh: with `terraform plan -refresh=false` the
// plan works from the state: a changed file is planned (service_sha256
// unknown, the apply reads the list itself and also writes back drift it
// finds), and drift alone is not seen. The plan's warning that it works
// from the state is unit-tested (TestListContactsModifyPlanWarnings).
func TestAccListContactsNoRefresh(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const n = 3
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	file := filepath.Join(t.TempDir(), "contacts.csv")
	writeFile(t, file, fileRows(n, nil))
	cfg := env.Config(listContactsFileConfig(listID, file))
	changed := func(i int, first, _ *string) {
		if i == 2 {
			*first = "Changed 2"
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		AdditionalCLIOptions:     &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}},
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/r-0001", map[string]any{"properties": map[string]any{"firstname": "Elsewhere"}}, nil)
					writeFile(t, file, fileRows(n, changed))
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(listContactsFileAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(listContactsFileAddr, tfjsonpath.New("service_sha256")),
				}},
				Check: func(*terraform.State) error {
					return wantFileRows(t, env, listID, n, func(i int) string {
						if i == 2 {
							return "Changed 2"
						}
						return defaultName(i)
					})
				},
			},
			{
				// drift alone: a plan without refresh cannot see it (an empty plan)
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/r-0000", map[string]any{"properties": map[string]any{"firstname": "Elsewhere"}}, nil)
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}
