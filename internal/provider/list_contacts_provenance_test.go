package provider_test

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The paths a pipeline takes when an apply of rms_list_contacts does not
// end as planned: cut short in a wait (a timeout, SIGINT), refused by the
// guardrail half way through a saved plan, or resuming a batch the service
// failed. Each ends with nobody unsubscribed or re-subscribed that the
// configuration and the recipient did not ask for. They run through the CLI
// and the provider binary (acctest.Workspace), as a pipeline runs them.

// heldClock is the emulator's clock for these tests: while held, batches
// stay PENDING (they are created with an hour to wait); released, every
// look moves it two hours on, so every batch finishes at its next look.
type heldClock struct {
	mu   sync.Mutex
	now  time.Time
	held bool
}

func (c *heldClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.held {
		c.now = c.now.Add(2 * time.Hour)
	}
	return c.now
}

func (c *heldClock) hold(held bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = held
}

// contactRows renders a CSV of contacts r-001 ... r-n (originalId, email).
func contactRows(n int) string {
	var b strings.Builder
	b.WriteString("originalId,email\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "r-%03d,r%03d@example.com\n", i, i)
	}
	return b.String()
}

// exclusiveFileConfig is an exclusive rms_list_contacts of contacts.csv;
// extra goes inside the block.
func exclusiveFileConfig(listID, extra string) string {
	return fmt.Sprintf(`
resource "rms_list_contacts" "l" {
  list_id         = %q
  source_file     = "${path.module}/contacts.csv"
  exclusive       = true
  batch_threshold = 100
%s
}
`, listID, extra)
}

// unsubscribeImports counts the list's UNSUBSCRIBE imports.
func unsubscribeImports(t *testing.T, env *acctest.Env, listID string) int {
	t.Helper()
	var all []struct {
		Type string `json:"type"`
	}
	env.Inspect(t, "lists/"+listID+"/imports?pageSize=1000", &all)
	n := 0
	for _, imp := range all {
		if imp.Type == "UNSUBSCRIBE" {
			n++
		}
	}
	return n
}

// wantStatuses fails the test unless every contact of ids has the e-mail
// and mobile statuses given.
func wantStatuses(t *testing.T, got map[string]serverContact, ids []string, email, mobile string) {
	t.Helper()
	var wrong []string
	for _, id := range ids {
		c, ok := got[id]
		if !ok || c.Status != email || c.MobileStatus != mobile {
			wrong = append(wrong, fmt.Sprintf("%s=%s/%s", id, c.Status, c.MobileStatus))
		}
	}
	if len(wrong) > 0 {
		t.Fatalf("%d of %d contacts are not %s/%s: %s", len(wrong), len(ids), email, mobile, strings.Join(wrong[:min(len(wrong), 10)], ", "))
	}
}

func rowIDs(from, to int) []string {
	ids := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprintf("r-%03d", i))
	}
	return ids
}

// An exclusive apply whose UNSUBSCRIBE import wait is cut short (a timeout,
// or SIGINT to terraform) keeps, per channel, the unsubscriptions it made:
// e-mail went by the import, mobile's single calls never ran. When the
// full export is back, the next apply brings every contact back on both
// channels; an apply of the cut export in between finishes the mobile
// half by single calls and sends no second UNSUBSCRIBE import.
func TestAccListContactsExclusiveInterrupted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, tc := range []struct {
		name      string
		interrupt bool // SIGINT; else timeouts.update ends the wait
	}{
		{name: "timeout"},
		{name: "SIGINT", interrupt: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := &heldClock{now: time.Now().UTC()}
			env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
			listID := newTestList(t, env)
			ws := acctest.NewWorkspace(t)
			extra := "  max_unsubscribe = 1000\n"
			if !tc.interrupt {
				extra += "  timeouts {\n    update = \"3s\"\n  }\n"
			}
			ws.Configure(env, exclusiveFileConfig(listID, extra))
			ws.Write("contacts.csv", contactRows(300))
			if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
				t.Fatalf("the first apply exited %d:\n%s", code, out)
			}

			// The export is cut to 150 rows; the UNSUBSCRIBE import of the
			// other 150 stays PENDING while the apply waits.
			ws.Write("contacts.csv", contactRows(150))
			clock.hold(true)
			apply := ws.Start("apply", "-auto-approve", "-no-color")
			if tc.interrupt {
				looks := env.Emulator.Requests().ByRoute[routeGetBatch]
				apply.Until("the provider waits for the UNSUBSCRIBE import", func() bool {
					return unsubscribeImports(t, env, listID) == 1 && env.Emulator.Requests().ByRoute[routeGetBatch] > looks
				})
				apply.Signal(os.Interrupt)
			}
			out, _ := apply.Wait()
			if !strings.Contains(out, "has not finished") {
				t.Fatalf("the cut-short apply does not say its import has not finished:\n%s", out)
			}
			clock.hold(false) // the import finishes behind the apply
			got := listContactsOf(t, env, listID)
			wantStatuses(t, got, rowIDs(151, 300), "UNSUBSCRIBED", "SUBSCRIBED")

			if tc.interrupt {
				// The cut export applied again: the mobile half by single
				// calls, and no second import for e-mails unsubscribed already.
				if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
					t.Fatalf("the apply of the cut export exited %d:\n%s", code, out)
				}
				wantStatuses(t, listContactsOf(t, env, listID), rowIDs(151, 300), "UNSUBSCRIBED", "UNSUBSCRIBED")
			}
			if n := unsubscribeImports(t, env, listID); n != 1 {
				t.Fatalf("the list has %d UNSUBSCRIBE imports, want 1", n)
			}

			// The full export is back: Terraform's own unsubscriptions are
			// undone, on every channel it made them.
			ws.Write("contacts.csv", contactRows(300))
			out, code := ws.Run("apply", "-auto-approve", "-no-color")
			if code != 0 {
				t.Fatalf("the apply of the full export exited %d:\n%s", code, out)
			}
			if strings.Contains(out, "opted out") {
				t.Errorf("the apply takes Terraform's own unsubscriptions for opt-outs:\n%s", out)
			}
			wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, 300), "SUBSCRIBED", "SUBSCRIBED")
			if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
				t.Fatalf("the plan after the full export is not empty (exit %d):\n%s", code, out)
			}
		})
	}
}

// An exclusive apply of a saved plan that is refused (since the plan, 100
// sign-ups, which alone it would leave as they are, and another writer's
// edit of a contact's address, which it cannot set back to count) writes
// nothing, leaves the state as it was, and records no unsubscription:
// recipients who then opt out stay opted out through the next apply.
func TestAccListContactsRefusedApplyRecordsNothing(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, exclusiveFileConfig(listID, ""))
	ws.Write("contacts.csv", contactRows(300))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	before, _ := ws.Instance("rms_list_contacts", "l")

	// 25 rows cut: 25 of 300, within the default limits at plan time.
	ws.Write("contacts.csv", contactRows(275))
	if out, code := ws.Run("plan", "-out=cut.tfplan", "-no-color"); code != 0 {
		t.Fatalf("the plan of the cut export exited %d:\n%s", code, out)
	}
	// 100 sign-ups before the saved plan is applied: the apply counts 125
	// unnamed subscribers, above both default limits.
	for i := 1; i <= 100; i++ {
		env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": fmt.Sprintf("s-%03d", i)}, nil)
	}
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/r-001", map[string]any{"properties": map[string]any{"email": "elsewhere@example.com"}}, nil)
	out, code := ws.Run("apply", "-no-color", "cut.tfplan")
	// (The final plan finds the list changed since the plan's refresh in
	// a way it cannot count the reviewed plan's counts again from, and
	// refuses before the apply writes.)
	if code == 0 || !acctest.Contains(out, "Contacts of list "+listID+" changed since the plan", "properties changed") {
		t.Fatalf("the apply of the saved plan was not refused (exit %d):\n%s", code, out)
	}
	if strings.Contains(out, "bug in the provider") {
		t.Errorf("the refusal reads as a provider bug:\n%s", out)
	}
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(276, 300), "SUBSCRIBED", "SUBSCRIBED")
	after, _ := ws.Instance("rms_list_contacts", "l")
	// (service_sha256 is the refresh's of the plan, which the apply of a
	// saved plan starts from.)
	for _, attr := range []string{"contact_count", "desired_sha256"} {
		if after.Attributes[attr] != before.Attributes[attr] {
			t.Errorf("the refused apply changed %s in the state: %v, was %v", attr, after.Attributes[attr], before.Attributes[attr])
		}
	}
	var rec struct {
		Released map[string][2]string `json:"released"`
	}
	after.PrivateKey(t, "applied", &rec)
	if len(rec.Released) != 0 {
		t.Fatalf("the refused apply recorded %d unsubscriptions it never made", len(rec.Released))
	}

	// Five of the 25 opt out on both channels, on the service's own call;
	// the full export is applied again (the sign-ups are within limits).
	optedOut := rowIDs(276, 280)
	for _, id := range optedOut {
		env.MustDo(t, "PUT", "lists/"+listID+"/contacts/"+id+"/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED", "mobileStatus": "UNSUBSCRIBED"}, nil)
	}
	ws.Write("contacts.csv", contactRows(300))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply after the opt-outs exited %d:\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	wantStatuses(t, got, optedOut, "UNSUBSCRIBED", "UNSUBSCRIBED")
	wantStatuses(t, got, rowIDs(281, 300), "SUBSCRIBED", "SUBSCRIBED")
}

// A resumed wait whose batch the service failed (it restarted while the
// import ran) converges in the same apply: the apply warns naming the
// failed batch, reads the list and writes what is missing, and the next
// plan is empty.
func TestAccListContactsResumedBatchFailed(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &heldClock{now: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour, DataDir: t.TempDir()})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Write("contacts.csv", contactRows(150))
	config := strings.Replace(exclusiveFileConfig(listID, "  timeouts {\n    create = \"3s\"\n  }\n"), "exclusive       = true", "exclusive       = false", 1)
	ws.Configure(env, config)
	clock.hold(true)
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 || !strings.Contains(out, "has not finished") {
		t.Fatalf("the first apply did not end waiting (exit %d):\n%s", code, out)
	}
	// The service restarts: the running import fails, having applied none
	// of its rows.
	env.Restart(t)
	clock.hold(false)
	ws.Configure(env, config)
	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("the resuming apply exited %d:\n%s", code, out)
	}
	if !acctest.Contains(out, "failed") {
		t.Errorf("the resuming apply does not name the failed batch:\n%s", out)
	}
	got := listContactsOf(t, env, listID)
	if len(got) != 150 {
		t.Fatalf("the list holds %d contacts after the resuming apply, want 150", len(got))
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the resuming apply is not empty (exit %d):\n%s", code, out)
	}
}

// statusRows renders a CSV of contacts r-001 ... r-n that the file wants
// subscribed to e-mail, those from r-<unsubscribedFrom> on unsubscribed.
func statusRows(n, unsubscribedFrom int) string {
	var b strings.Builder
	b.WriteString("originalId,email,email_status\n")
	for i := 1; i <= n; i++ {
		st := "SUBSCRIBED"
		if i >= unsubscribedFrom {
			st = "UNSUBSCRIBED"
		}
		fmt.Fprintf(&b, "r-%03d,r%03d@example.com,%s\n", i, i, st)
	}
	return b.String()
}

// An exclusive apply killed (SIGKILL to terraform and its provider) while
// its UNSUBSCRIBE import runs returns nothing to Terraform: the record of
// what it unsubscribed is lost. The contacts stay unsubscribed (the
// fail-safe way); the next plan says it cannot tell them from opt-outs and
// names them, and allow_resubscribe_ids brings back exactly the ones named
// there, while a recipient's own opt-out stays.
func TestAccListContactsExclusiveKilled(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &heldClock{now: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, exclusiveFileConfig(listID, "  max_unsubscribe = 1000\n"))
	ws.Write("contacts.csv", statusRows(300, 301))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}

	ws.Write("contacts.csv", statusRows(150, 151))
	clock.hold(true)
	apply := ws.Start("apply", "-auto-approve", "-no-color")
	looks := env.Emulator.Requests().ByRoute[routeGetBatch]
	apply.Until("the provider waits for the UNSUBSCRIBE import", func() bool {
		return unsubscribeImports(t, env, listID) == 1 && env.Emulator.Requests().ByRoute[routeGetBatch] > looks
	})
	apply.Kill()
	apply.Wait()
	clock.hold(false)
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(151, 300), "UNSUBSCRIBED", "SUBSCRIBED")
	// r-010 opts out on the service's own call.
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/r-010/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)

	ws.Write("contacts.csv", statusRows(300, 301))
	out, code := ws.Run("plan", "-no-color")
	if code != 0 {
		t.Fatalf("the plan of the full export exited %d:\n%s", code, out)
	}
	if !acctest.Contains(out, "151 are UNSUBSCRIBED though the configuration says SUBSCRIBED", "the provider cannot tell which", `"r-010"`, "allow_resubscribe_ids") {
		t.Fatalf("the plan does not say it cannot tell the killed apply's unsubscriptions from opt-outs:\n%s", out)
	}
	if acctest.Contains(out, "opted out outside Terraform and") {
		t.Errorf("the plan calls them opted out outside Terraform:\n%s", out)
	}

	ids := make([]string, 0, 150)
	for _, id := range rowIDs(151, 300) {
		ids = append(ids, fmt.Sprintf("%q", id))
	}
	ws.Configure(env, exclusiveFileConfig(listID, "  max_unsubscribe = 1000\n  allow_resubscribe_ids = ["+strings.Join(ids, ", ")+"]\n"))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply with allow_resubscribe_ids exited %d:\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	wantStatuses(t, got, rowIDs(151, 300), "SUBSCRIBED", "SUBSCRIBED")
	wantStatuses(t, got, []string{"r-010"}, "UNSUBSCRIBED", "SUBSCRIBED")
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply is not empty (exit %d):\n%s", code, out)
	}
}

// An apply whose file unsubscribes 150 contacts is cut short while its
// UNSUBSCRIBE import runs; the file is changed back before the next apply.
// The unsubscriptions were Terraform's (the file asked for them), so the
// next apply re-subscribes them, and calls none of them an opt-out.
func TestAccListContactsUnsubscribeInterrupted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &heldClock{now: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, strings.Replace(exclusiveFileConfig(listID, "  timeouts {\n    update = \"3s\"\n  }\n"), "exclusive       = true", "exclusive       = false", 1))
	ws.Write("contacts.csv", statusRows(300, 301))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	ws.Write("contacts.csv", statusRows(300, 151))
	clock.hold(true)
	if out, _ := ws.Run("apply", "-auto-approve", "-no-color"); !strings.Contains(out, "has not finished") {
		t.Fatalf("the apply that unsubscribes was not cut short:\n%s", out)
	}
	clock.hold(false)
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(151, 300), "UNSUBSCRIBED", "SUBSCRIBED")

	ws.Write("contacts.csv", statusRows(300, 301))
	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("the apply of the file changed back exited %d:\n%s", code, out)
	}
	if strings.Contains(out, "opted out") || strings.Contains(out, "UNSUBSCRIBED though") {
		t.Errorf("the apply takes Terraform's own unsubscriptions for opt-outs:\n%s", out)
	}
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, 300), "SUBSCRIBED", "SUBSCRIBED")
}

// A destroy with on_destroy = "unsubscribe" whose UNSUBSCRIBE import wait is
// cut short (timeouts.delete) fails and keeps the resource with its batch
// and what it released: an apply that keeps the resource after all brings
// the contacts back, and a destroy after it waits for its own batch and
// imports nothing twice.
func TestAccListContactsDestroyInterrupted(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &heldClock{now: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	config := strings.Replace(exclusiveFileConfig(listID, "  on_destroy = \"unsubscribe\"\n  max_unsubscribe_percent = 100\n  timeouts {\n    delete = \"3s\"\n  }\n"), "exclusive       = true", "exclusive       = false", 1)
	ws.Configure(env, config)
	ws.Write("contacts.csv", statusRows(150, 151))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	destroyCutShort := func() {
		t.Helper()
		clock.hold(true)
		out, code := ws.Run("destroy", "-auto-approve", "-no-color")
		clock.hold(false)
		if code == 0 || !acctest.Contains(out, "Contacts not unsubscribed") {
			t.Fatalf("the destroy was not cut short (exit %d):\n%s", code, out)
		}
		if _, ok := ws.Instance("rms_list_contacts", "l"); !ok {
			t.Fatal("the destroy cut short left no resource in the state")
		}
	}
	destroyCutShort()
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, 150), "UNSUBSCRIBED", "SUBSCRIBED")

	// The list owner keeps the list after all.
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply after the destroy cut short exited %d:\n%s", code, out)
	}
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, 150), "SUBSCRIBED", "SUBSCRIBED")

	destroyCutShort()
	if out, code := ws.Run("destroy", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the second destroy exited %d:\n%s", code, out)
	}
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, 150), "UNSUBSCRIBED", "SUBSCRIBED")
	if n := unsubscribeImports(t, env, listID); n != 2 {
		t.Fatalf("the list has %d UNSUBSCRIBE imports, want 2 (one per destroy cut short)", n)
	}
}
