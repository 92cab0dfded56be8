package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// on_destroy of rms_list_contacts and rms_contact, driven through real
// Terraform. The emulator sends a webhook event for every status change
// and for every contact a deleted list takes with it; the tests count them
// as a CRM mirroring opt-outs would (recorded whether delivered or not).

// watchContactEvents subscribes a webhook of env's account to
// contact.unsubscribed and contact.deleted.
func watchContactEvents(t *testing.T, env *acctest.Env) {
	t.Helper()
	env.MustDo(t, "POST", "webhooks", map[string]any{
		"url": "http://127.0.0.1:9/hooks", "events": []string{"contact.unsubscribed", "contact.deleted"}, "active": true,
	}, nil)
}

// contactEvents counts the events of kind env has sent (a summary event
// counts for the events it stands for).
func contactEvents(t *testing.T, env *acctest.Env, kind string) int {
	t.Helper()
	n := 0
	for _, d := range env.Emulator.Deliveries() {
		if d.Event != kind {
			continue
		}
		var body struct {
			Data struct {
				Summary bool `json:"summary"`
				Count   int  `json:"count"`
			} `json:"data"`
		}
		if json.Unmarshal(d.Body, &body) == nil && body.Data.Summary {
			n += body.Data.Count
			continue
		}
		n++
	}
	return n
}

// subscribedContacts is a contacts map of n contacts p-00..., subscribed
// to e-mail and mobile by the configuration.
func subscribedContacts(prefix string, n int) map[string]listContact {
	m := make(map[string]listContact, n)
	for i := range n {
		m[fmt.Sprintf("%s-%02d", prefix, i)] = listContact{email: "SUBSCRIBED", mobile: "SUBSCRIBED"}
	}
	return m
}

// TestAccListContactsDestroyForgets: by default destroy writes nothing. A
// list destroyed in the same run as its rms_list_contacts sends
// contact.deleted for its contacts and not one contact.unsubscribed; a
// removed rms_list_contacts block (its list kept) writes nothing at all.
func TestAccListContactsDestroyForgets(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	watchContactEvents(t, env)
	kept := newTestList(t, env)
	owned := func(removed bool) string {
		hcl := `
resource "rms_list" "l" {
  name                = "Destroyed with its contacts"
  deletion_protection = false
}
` + strings.Replace(listContactsConfig("LIST", subscribedContacts("d", 8), ""), `"LIST"`, "rms_list.l.id", 1)
		if !removed {
			hcl += strings.Replace(listContactsConfig(kept, subscribedContacts("k", 6), ""), `"c"`, `"kept"`, 1)
		}
		return env.Config(hcl)
	}
	var statusCalls int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: owned(false),
				Check: func(*terraform.State) error {
					statusCalls = env.Emulator.Requests().ByRoute[routeSubscriptionStatus]
					return nil
				},
			},
			{ // the block of the kept list is removed: nothing is written
				Config: owned(true),
				Check: func(*terraform.State) error {
					if n := env.Emulator.Requests().ByRoute[routeSubscriptionStatus] - statusCalls; n != 0 {
						return fmt.Errorf("removing the block made %d subscription-status calls, want none", n)
					}
					if n := contactEvents(t, env, "contact.unsubscribed"); n != 0 {
						return fmt.Errorf("removing the block sent %d contact.unsubscribed events, want none", n)
					}
					return checkListStatuses(t, env, kept, 0, 0, 6)(nil)
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if n := contactEvents(t, env, "contact.unsubscribed"); n != 0 {
				return fmt.Errorf("destroy sent %d contact.unsubscribed events, want none", n)
			}
			if n := contactEvents(t, env, "contact.deleted"); n != 8 {
				return fmt.Errorf("deleting the list sent %d contact.deleted events, want 8", n)
			}
			if n := env.Emulator.Requests().ByRoute[routeCreateImport]; n != 0 {
				return fmt.Errorf("the test ran %d imports, want none", n)
			}
			return nil
		},
	})
}

// destroyFile writes a source file of n contacts u000...: every row sets
// email_status; only the first withMobile set mobile_status.
func destroyFile(t *testing.T, n, withMobile int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("originalId,email_status,mobile_status\n")
	for i := range n {
		mobile := ""
		if i < withMobile {
			mobile = "SUBSCRIBED"
		}
		fmt.Fprintf(&b, "%s,SUBSCRIBED,%s\n", guardedID(i), mobile)
	}
	file := filepath.Join(t.TempDir(), "contacts.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestAccListContactsDestroyUnsubscribe: on_destroy = "unsubscribe"
// unsubscribes only the channels the file sets (e-mail for its 150
// contacts, mobile for 20 of them), counts them per channel in the destroy
// plan, and the protective default limit holds it back until a limit is
// raised and applied; the contacts the file does not name are left alone.
func TestAccListContactsDestroyUnsubscribe(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := guardedList(t, env, guardedSize, 0)
	file := destroyFile(t, 150, 20)
	cfg := func(extra string) string {
		return env.Config(guardedFileConfig(listID, file, `  on_destroy = "unsubscribe"`+"\n"+extra))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg("")},
			{
				Config:  cfg(""),
				Destroy: true,
				ExpectError: acctest.ExpectErrorParts("Too many contacts to unsubscribe",
					"destroying rms_list_contacts unsubscribes 150 of the 300 contacts subscribed to e-mail (50.0 %) and 20 of the 300 contacts subscribed to mobile (6.7 %)",
					"max_unsubscribe = 100 (the default) and max_unsubscribe_percent = 10 (the default)", "`max_unsubscribe = 150`", "apply once before destroying"),
			},
			{
				PreConfig: func() { expectUntouched(t, env, listID) },
				Config:    cfg("  max_unsubscribe = 150"),
			},
		},
		CheckDestroy: checkListStatuses(t, env, listID, 150, 20, guardedSize),
	})
}

// TestAccListContactsDestroyWaitsForBatch: an apply whose ADD import is
// still running when its wait ends keeps the batch; a destroy with
// on_destroy = "unsubscribe" waits for it, fails writing nothing when it
// does not finish within timeouts.delete, and once it finishes unsubscribes
// the contacts it added, never before.
func TestAccListContactsDestroyWaitsForBatch(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	clock := &pollClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	watchUnsubscriptions(t, env)
	listID := newTestList(t, env)
	cfg := env.Config(listContactsConfig(listID, subscribedContacts("b", 5), `  on_destroy      = "unsubscribe"
  batch_threshold = 0
  timeouts {
    create = "2s"
    delete = "3s"
  }`))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: cfg, ExpectNonEmptyPlan: true}, // the batch is PENDING: the contacts are not there yet
			{
				Config:      cfg,
				Destroy:     true,
				ExpectError: acctest.ExpectErrorParts("Destroy waits for an import batch of this resource", "did not finish within timeouts.delete", "destroy unsubscribed nobody"),
			},
			{
				PreConfig: func() {
					if n := unsubscriptions(env); n != 0 {
						t.Fatalf("the refused destroy sent %d contact.unsubscribed events", n)
					}
					clock.arm(1) // the batch finishes at the destroy's first look
				},
				Config:  cfg,
				Destroy: true,
			},
		},
		CheckDestroy: func(*terraform.State) error {
			got := listContactsOf(t, env, listID)
			for id := range subscribedContacts("b", 5) {
				if c, ok := got[id]; !ok || c.Status != "UNSUBSCRIBED" || c.MobileStatus != "UNSUBSCRIBED" {
					return fmt.Errorf("after destroy %s is %+v (in list: %v), want it added by the batch and then unsubscribed", id, c, ok)
				}
			}
			if n := unsubscriptions(env); n != 10 {
				return fmt.Errorf("%d contact.unsubscribed events, want 10 (5 contacts, 2 channels)", n)
			}
			return nil
		},
	})
}

// TestAccOnDestroyStateUpgrade: a state written before on_destroy existed
// (schema version 0, no on_destroy), as the previous release leaves it,
// plans empty with and without a refresh, and its destroy forgets.
func TestAccOnDestroyStateUpgrade(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	watchUnsubscriptions(t, env)
	listID := newTestList(t, env)
	w := acctest.NewWorkspace(t)
	w.Configure(env, listContactsConfig(listID, subscribedContacts("u", 3), "")+fmt.Sprintf(`
resource "rms_contact" "one" {
  list_id      = %q
  original_id  = "solo"
  email_status = "SUBSCRIBED"
}
`, listID))
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("apply: %d\n%s", code, out)
	}
	// Rewrite the state as the previous release wrote it.
	path := w.Path("terraform.tfstate")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st["resources"].([]any) {
		for _, inst := range r.(map[string]any)["instances"].([]any) {
			inst := inst.(map[string]any)
			inst["schema_version"] = 0
			delete(inst["attributes"].(map[string]any), "on_destroy")
		}
	}
	if raw, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	w.Write("terraform.tfstate", string(raw))
	for _, args := range [][]string{{"plan", "-detailed-exitcode", "-no-color"}, {"plan", "-refresh=false", "-detailed-exitcode", "-no-color"}} {
		if out, code := w.Run(args...); code != 0 {
			t.Fatalf("terraform %v on a state without on_destroy: exit %d, want 0 (no changes)\n%s", args, code, out)
		}
	}
	if out, code := w.Run("destroy", "-auto-approve", "-no-color"); code != 0 || !strings.Contains(out, "Destroy forgets contacts") {
		t.Fatalf("destroy: %d\n%s", code, out)
	}
	if n := unsubscriptions(env); n != 0 {
		t.Errorf("destroying a state without on_destroy sent %d contact.unsubscribed events, want none", n)
	}
	if e, m, n := countStatuses(t, env, listID); e != 0 || m != 0 || n != 4 {
		t.Errorf("after destroy: %d unsubscribed from e-mail, %d from mobile, %d contacts; want 0, 0, 4", e, m, n)
	}
}

// TestAccListContactsDestroyForgetsPendingBatch: a default destroy while
// the resource's ADD import is still running writes nothing and does not
// wait, but says, in the plan and after the destroy, that the batch goes
// on and names it: the contacts it adds then belong to no state.
func TestAccListContactsDestroyForgetsPendingBatch(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &pollClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	watchUnsubscriptions(t, env)
	listID := newTestList(t, env)
	w := acctest.NewWorkspace(t)
	w.Configure(env, listContactsConfig(listID, subscribedContacts("p", 5), `  batch_threshold = 0
  timeouts {
    create = "2s"
  }`))
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 0 || !acctest.Contains(out, "has not finished") {
		t.Fatalf("apply: exit %d, want 0 with the batch not finished:\n%s", code, out)
	}
	inst, ok := w.Instance("rms_list_contacts", "c")
	var batches []string
	if !ok || !inst.PrivateKey(t, "batches", &batches) || len(batches) != 1 {
		t.Fatalf("the state keeps no pending batch: %v %+v", batches, inst)
	}
	out, code := w.Run("destroy", "-auto-approve", "-no-color")
	if code != 0 || !acctest.Contains(out, "Import batch "+batches[0]+" of this resource had not been seen finished", "Import batch still running after destroy", "import batch "+batches[0]+" of this resource had not finished") {
		t.Fatalf("destroy: exit %d, want 0 naming batch %s in the plan and after the destroy:\n%s", code, batches[0], out)
	}
	if n := unsubscriptions(env); n != 0 {
		t.Errorf("destroy sent %d contact.unsubscribed events, want none", n)
	}
}
