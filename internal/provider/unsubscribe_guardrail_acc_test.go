package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The guardrail on mass unsubscription (unsubscribe_guardrail.go), driven
// through real Terraform: each plan that unsubscribes or removes too many
// contacts fails before anything is written, and the setting the error
// names lets it through.

// guardedList makes a list of n SUBSCRIBED contacts g000, g001, ...; the
// first unsubscribedEmail of them are unsubscribed from e-mail.
func guardedList(t *testing.T, env *acctest.Env, n, unsubscribedEmail int) string {
	t.Helper()
	listID := newTestList(t, env)
	seed := make([]emulator.Contact, n)
	for i := range seed {
		seed[i] = emulator.Contact{OriginalID: guardedID(i), Status: "SUBSCRIBED", MobileStatus: "SUBSCRIBED"}
		if i < unsubscribedEmail {
			seed[i].Status = "UNSUBSCRIBED"
		}
	}
	if err := env.Emulator.UpsertContacts(mustParseID(t, listID), seed); err != nil {
		t.Fatal(err)
	}
	return listID
}

func guardedID(i int) string { return fmt.Sprintf("g%03d", i) }

// guardedContacts is the contacts map of rms_list_contacts naming the
// first n contacts of guardedList.
func guardedContacts(n int) map[string]listContact {
	m := make(map[string]listContact, n)
	for i := range n {
		m[guardedID(i)] = listContact{}
	}
	return m
}

// guardedCSV is an import file naming the first n contacts of
// guardedList, plus extra ids the list does not hold.
func guardedCSV(n int, extra ...string) string {
	var b strings.Builder
	b.WriteString("originalId\n")
	for i := range n {
		b.WriteString(guardedID(i) + "\n")
	}
	for _, id := range extra {
		b.WriteString(id + "\n")
	}
	return b.String()
}

// countStatuses counts the list's contacts unsubscribed from e-mail and
// from mobile, and all of them.
func countStatuses(t *testing.T, env *acctest.Env, listID string) (email, mobile, total int) {
	t.Helper()
	for _, c := range listContactsOf(t, env, listID) {
		if c.Status == "UNSUBSCRIBED" {
			email++
		}
		if c.MobileStatus == "UNSUBSCRIBED" {
			mobile++
		}
		total++
	}
	return email, mobile, total
}

// guardedSize is the size of the lists most tests guard.
const guardedSize = 300

// expectUntouched: the list still holds its guardedSize contacts, all
// subscribed.
func expectUntouched(t *testing.T, env *acctest.Env, listID string) {
	t.Helper()
	if e, m, n := countStatuses(t, env, listID); e != 0 || m != 0 || n != guardedSize {
		t.Fatalf("list %s: %d unsubscribed from e-mail, %d from mobile, %d contacts; want none unsubscribed of %d", listID, e, m, n, guardedSize)
	}
}

func checkListStatuses(t *testing.T, env *acctest.Env, listID string, email, mobile, total int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if e, m, n := countStatuses(t, env, listID); e != email || m != mobile || n != total {
			return fmt.Errorf("list %s: %d unsubscribed from e-mail, %d from mobile, %d contacts; want %d, %d, %d", listID, e, m, n, email, mobile, total)
		}
		return nil
	}
}

// providerWithLimits is the provider block with extra settings inside.
func providerWithLimits(env *acctest.Env, settings string) string {
	return strings.Replace(env.ProviderBlock(), "batch_poll_interval", settings+"\n  batch_poll_interval", 1)
}

// TestAccUnsubscribeGuardrailExclusive: switching on exclusive for a list
// whose contacts the configuration mostly does not name is held back by
// the default limits (the count and share from the refresh's listing), and
// nothing is unsubscribed; the per-resource setting the error names lets
// it through.
func TestAccUnsubscribeGuardrailExclusive(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	named := guardedContacts(50)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(listContactsConfig(listID, named, ""))},
			{
				Config: env.Config(listContactsConfig(listID, named, "  exclusive = true")),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe", `with rms_list_contacts.c`,
					"exclusive = true unsubscribes 250 of the 300 contacts subscribed to e-mail (83.3 %) and 250 of the 300 contacts subscribed to mobile (83.3 %); list "+listID+" holds 300 contacts",
					"max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 10 (the default)",
					"Nothing was written", "`max_unsubscribe = 250` or `max_unsubscribe_percent = 83.4` on this resource"),
			},
			{
				PreConfig: func() { expectUntouched(t, env, listID) },
				Config:    env.Config(listContactsConfig(listID, named, "  exclusive = true\n  max_unsubscribe = 250")),
				Check:     checkListStatuses(t, env, listID, 250, 250, 300),
			},
		},
	})
}

// TestAccUnsubscribeGuardrailExclusiveCreate: a new exclusive resource on a
// full list (no refresh listing: the plan lists the list once) is held
// back; the provider-wide setting lets it through.
func TestAccUnsubscribeGuardrailExclusiveCreate(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	cfg := listContactsConfig(listID, guardedContacts(50), "  exclusive = true")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      providerWithLimits(env, "  max_unsubscribe_percent = 150") + cfg,
				ExpectError: regexp.MustCompile(`(?s)max_unsubscribe_percent = 150.*value must be between 0.0+ and\s+100`),
			},
			{
				Config:      env.Config(strings.Replace(cfg, "exclusive = true", "exclusive = true\n  max_unsubscribe = -1", 1)),
				ExpectError: regexp.MustCompile(`(?s)max_unsubscribe = -1.*value must be at least 0`),
			},
			{
				Config:      env.Config(cfg),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe", "250 of the 300 contacts", "(83.3 %)", "max_unsubscribe = 250"),
			},
			{
				PreConfig: func() { expectUntouched(t, env, listID) },
				Config:    providerWithLimits(env, "  max_unsubscribe_percent = 90") + cfg,
				Check:     checkListStatuses(t, env, listID, 250, 250, 300),
			},
		},
	})
}

// TestAccUnsubscribeGuardrailExclusiveUnknownList: where the list id is
// known only during the apply, the plan cannot count: it promises to
// unsubscribe nobody it could not count, and the apply stops before it
// writes anything; with a limit set explicitly, the apply counts
// on its own listing, fails before anything is written above the limit and
// goes through within it.
func TestAccUnsubscribeGuardrailExclusiveUnknownList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	cfg := `
resource "terraform_data" "list" {
  input = "` + listID + `"
}
` + strings.Replace(listContactsConfig(listID, guardedContacts(50), "  exclusive = true"), `list_id = "`+listID+`"`, "list_id = terraform_data.list.output", 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // the plan cannot count, and no limit was set: it promises zero
				Config:             env.Config(cfg),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{ // the apply's own plan counts (above the default limits) and stops before the first write
				Config:      env.Config(cfg),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe", "250 of the 300 contacts subscribed to e-mail", "Nothing was written"),
			},
			{ // a limit set explicitly: the apply counts on its own listing and holds
				PreConfig:   func() { expectUntouched(t, env, listID) },
				Config:      env.Config(strings.Replace(cfg, "exclusive = true", "exclusive = true\n  max_unsubscribe_percent = 10", 1)),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe", "250 of the 300 contacts subscribed to e-mail", "list "+listID+" holds 300 contacts"),
			},
			{
				PreConfig: func() { expectUntouched(t, env, listID) },
				Config:    env.Config(strings.Replace(cfg, "exclusive = true", "exclusive = true\n  max_unsubscribe = 300", 1)),
				Check:     checkListStatuses(t, env, listID, 250, 250, 300),
			},
		},
	})
}

// guardedFile writes a source file naming the first n contacts.
func guardedFile(t *testing.T, n int) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(file, []byte(guardedCSV(n)), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func guardedFileConfig(listID, file, extra string) string {
	return fmt.Sprintf(`
resource "rms_list_contacts" "c" {
  list_id     = %q
  source_file = %q
%s
}
`, listID, file, extra)
}

// TestAccUnsubscribeGuardrailDestroyResourceLimit: a destroy with
// on_destroy = "unsubscribe" is held to the limit set on the resource
// (read from the state), the error says how to raise it, and after an
// apply that raises it the destroy goes through. The file sets both
// statuses, so destroy unsubscribes both channels.
func TestAccUnsubscribeGuardrailDestroyResourceLimit(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	file := destroyFile(t, 200, 200)
	const unsubscribe = "  on_destroy = \"unsubscribe\"\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(guardedFileConfig(listID, file, unsubscribe+"  max_unsubscribe = 10"))},
			{
				Config:  env.Config(guardedFileConfig(listID, file, unsubscribe+"  max_unsubscribe = 10")),
				Destroy: true,
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe",
					"destroying rms_list_contacts unsubscribes 200 of the 300 contacts subscribed to e-mail (66.7 %) and 200 of the 300 contacts subscribed to mobile (66.7 %); list "+listID+" holds 300 contacts",
					"max_unsubscribe = 10 (set on this resource) and max_unsubscribe_percent = 10 (the default)",
					"`max_unsubscribe = 200`", "apply once before destroying", "prevent_destroy"),
			},
			{
				PreConfig: func() { expectUntouched(t, env, listID) },
				Config:    env.Config(guardedFileConfig(listID, file, unsubscribe+"  max_unsubscribe = 200")),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if e, m, _ := countStatuses(t, env, listID); e != 200 || m != 200 {
				return fmt.Errorf("after destroy %d contacts are unsubscribed from e-mail and %d from mobile, want 200", e, m)
			}
			return nil
		},
	})
}

// TestAccUnsubscribeGuardrailDestroyProviderLimit: a resource removed from
// the configuration is destroyed with the on_destroy in its state and
// under the provider block's limit, and the error says so; a limit raised
// in the provider block lets it through.
func TestAccUnsubscribeGuardrailDestroyProviderLimit(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	named := guardedContacts(150)
	for id := range named {
		named[id] = listContact{email: "SUBSCRIBED", mobile: "SUBSCRIBED"}
	}
	cfg := listContactsConfig(listID, named, "  on_destroy = \"unsubscribe\"")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(cfg)},
			{
				Config: providerWithLimits(env, "  max_unsubscribe_percent = 25"),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe",
					"destroying rms_list_contacts unsubscribes 150 of the 300 contacts subscribed to e-mail (50.0 %)",
					"max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 25 (set in the provider block)",
					"in the provider block"),
			},
			{
				PreConfig: func() { expectUntouched(t, env, listID) },
				Config:    providerWithLimits(env, "  max_unsubscribe_percent = 50"),
				Check:     checkListStatuses(t, env, listID, 150, 150, 300),
			},
		},
	})
}

// TestAccUnsubscribeGuardrailSubscribersOnly: a list of
// 1,450 contacts unsubscribed long ago and 150 subscribers; a header-only
// export with exclusive would unsubscribe every subscriber. Counted out of
// all 1,600 contacts that is 9.4 %, under the default 10 %; counted, as it
// is, out of the subscribers of each channel it is 100 %, and the plan is
// held back before anything is written.
func TestAccUnsubscribeGuardrailSubscribersOnly(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	seed := make([]emulator.Contact, 1600)
	for i := range seed {
		seed[i] = emulator.Contact{OriginalID: guardedID(i), Status: "SUBSCRIBED", MobileStatus: "SUBSCRIBED"}
		if i < 1450 {
			seed[i].Status, seed[i].MobileStatus = "UNSUBSCRIBED", "UNSUBSCRIBED"
		}
	}
	if err := env.Emulator.UpsertContacts(mustParseID(t, listID), seed); err != nil {
		t.Fatal(err)
	}
	file := guardedFile(t, 0) // the header only
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: env.Config(guardedFileConfig(listID, file, "  exclusive = true")),
			ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe",
				"exclusive = true unsubscribes 150 of the 150 contacts subscribed to e-mail (100.0 %) and 150 of the 150 contacts subscribed to mobile (100.0 %); list "+listID+" holds 1600 contacts",
				"Nothing was written"),
		}},
		CheckDestroy: func(*terraform.State) error {
			if e, m, n := countStatuses(t, env, listID); e != 1450 || m != 1450 || n != 1600 {
				return fmt.Errorf("list %s: %d unsubscribed from e-mail, %d from mobile, of %d; want 1450, 1450, 1600", listID, e, m, n)
			}
			return nil
		},
	})
}

func listImportGuardConfig(listID, typ, content, extra string) string {
	return fmt.Sprintf(`
resource "rms_list_import" "i" {
  list_id = %s
  type    = %q
  content = %q
%s
}
`, listID, typ, content, extra)
}

func checkImportCount(env *acctest.Env, want int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := env.Emulator.Requests().ByRoute[routeCreateImport]; got != want {
			return fmt.Errorf("the emulator saw %d imports created, want %d", got, want)
		}
		return nil
	}
}

func expectNoImports(t *testing.T, env *acctest.Env) {
	t.Helper()
	if err := checkImportCount(env, 0)(nil); err != nil {
		t.Fatal(err)
	}
}

// TestAccUnsubscribeGuardrailImportReplace: a REPLACE import that would
// remove most of the list is held back at plan, nothing is created on the
// service; the setting the error names lets it through.
func TestAccUnsubscribeGuardrailImportReplace(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	content := guardedCSV(100, "new-1")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(listImportGuardConfig(strconvQuote(listID), "REPLACE", content, "")),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to remove", "with rms_list_import.i",
					"the REPLACE import removes from the list for good 200 of the 300 contacts of list "+listID+" (66.7 %)",
					"`max_unsubscribe = 200` or `max_unsubscribe_percent = 66.7` on this resource"),
			},
			{
				PreConfig: func() { expectNoImports(t, env); expectUntouched(t, env, listID) },
				Config:    env.Config(listImportGuardConfig(strconvQuote(listID), "REPLACE", content, "  max_unsubscribe_percent = 66.7")),
				Check:     resource.ComposeTestCheckFunc(checkImportCount(env, 1), checkListStatuses(t, env, listID, 0, 0, 101)),
			},
		},
	})
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// TestAccUnsubscribeGuardrailImportUnsubscribe: an UNSUBSCRIBE import counts
// the file's contacts the list holds subscribed to e-mail (not those
// already unsubscribed, not those the list does not hold); a replacement
// (new content) is checked again.
func TestAccUnsubscribeGuardrailImportUnsubscribe(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 1000, 50)
	content := guardedCSV(250, "stranger-1", "stranger-2")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(listImportGuardConfig(strconvQuote(listID), "UNSUBSCRIBE", content, "")),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe",
					"the UNSUBSCRIBE import unsubscribes 200 of the 950 contacts subscribed to e-mail (21.1 %); list "+listID+" holds 1000 contacts", "`max_unsubscribe = 200`"),
			},
			{
				PreConfig: func() { expectNoImports(t, env) },
				Config:    env.Config(listImportGuardConfig(strconvQuote(listID), "UNSUBSCRIBE", content, "  max_unsubscribe = 200")),
				Check:     resource.ComposeTestCheckFunc(checkImportCount(env, 1), checkListStatuses(t, env, listID, 250, 0, 1000)),
			},
			{ // new content replaces the resource: its import is counted again
				Config: env.Config(listImportGuardConfig(strconvQuote(listID), "UNSUBSCRIBE", guardedCSV(600), "  max_unsubscribe = 200")),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe",
					"the UNSUBSCRIBE import unsubscribes 350 of the 750 contacts subscribed to e-mail", "(46.7 %)"),
			},
		},
		CheckDestroy: checkImportCount(env, 1),
	})
}

// TestAccUnsubscribeGuardrailImportUnknownList: a REPLACE import into a
// list known only during the apply is counted by the apply's own plan,
// before anything is created on the service.
func TestAccUnsubscribeGuardrailImportUnknownList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	cfg := `
resource "terraform_data" "list" {
  input = "` + listID + `"
}
` + listImportGuardConfig("terraform_data.list.output", "REPLACE", guardedCSV(10), "")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      env.Config(cfg),
				ExpectError: acctest.ExpectErrorParts("Too many contacts to remove", "290 of the 300 contacts of list "+listID),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			expectUntouched(t, env, listID)
			return checkImportCount(env, 0)(nil)
		},
	})
}

// TestAccUnsubscribeGuardrailAction: rms_run_list_import from an
// action_trigger is held back like the resource: at plan when its list is
// known then, and when it runs, before anything is created on the service,
// when its list is known only during the apply; its own max_unsubscribe
// lets it through.
func TestAccUnsubscribeGuardrailAction(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, 300, 0)
	cfg := func(run, list, limit string) string {
		return `
resource "terraform_data" "list" {
  input = "` + listID + `"
}

action "rms_run_list_import" "replace" {
  config {
    list_id = ` + list + `
    type    = "REPLACE"
    content = "` + strings.ReplaceAll(guardedCSV(100), "\n", `\n`) + `"
` + limit + `
  }
}

resource "terraform_data" "pipeline" {
  triggers_replace = "` + run + `"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_run_list_import.replace]
    }
  }
}
`
	}
	held := func(stage string) *regexp.Regexp {
		return acctest.ExpectErrorParts(stage, "rms_run_list_import: Too many contacts to remove",
			"the REPLACE import removes from the list for good 200 of the 300 contacts of list "+listID+" (66.7 %)", "on this action")
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // known list: held back by the plan
				Config:      env.Config(cfg("1", strconvQuote(listID), "")),
				ExpectError: held("pre-apply plan"),
			},
			{ // list known only during the apply: held back when the action runs
				PreConfig:   func() { expectNoImports(t, env) },
				Config:      env.Config(cfg("1", "terraform_data.list.output", "")),
				ExpectError: held("apply"),
			},
			{
				PreConfig: func() { expectNoImports(t, env); expectUntouched(t, env, listID) },
				Config:    env.Config(cfg("2", "terraform_data.list.output", "    max_unsubscribe = 200")),
				Check:     resource.ComposeTestCheckFunc(checkImportCount(env, 1), checkListStatuses(t, env, listID, 0, 0, 100)),
			},
		},
	})
}
