package provider_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccListContactsResumedBatchFinishedAfterPlan: an apply's wait for its
// import batch of 300 rows is cut short (timeouts.create). The next plan is
// saved while the batch is still PENDING, so it cannot count and says why
// (planned_changes unknown), and the batch finishes before that plan is
// applied: the list moved on between the plan and its apply, by the batch
// this apply resumes, far beyond what a sketch tells apart. The apply goes
// through, uploads nothing again, and the next plan has nothing to do.
func TestAccListContactsResumedBatchFinishedAfterPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	const n = 300
	base := time.Now().UTC()
	var later atomic.Int64 // the emulator's clock, ahead of base by this
	env := acctest.NewEnv(t, emulator.Options{
		Now:             func() time.Time { return base.Add(time.Duration(later.Load())) },
		BatchPendingFor: time.Hour,
	})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Write("contacts.csv", contactRows(n))
	ws.Configure(env, fmt.Sprintf(`
resource "rms_list_contacts" "l" {
  list_id         = %q
  source_file     = "${path.module}/contacts.csv"
  batch_threshold = 10
  timeouts {
    create = "2s"
  }
}
`, listID))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 || uploads(env) != 1 {
		t.Fatalf("the first apply exited %d with %d uploads, want a warning and one upload:\n%s", code, uploads(env), out)
	}
	if got := listContactsOf(t, env, listID); len(got) != 0 {
		t.Fatalf("the batch was to stay PENDING, but the list holds %d contacts", len(got))
	}
	if out, code := ws.Run("plan", "-out=p.tfplan", "-no-color"); code != 0 || !acctest.Contains(out, "Import batch of an earlier apply still running", "planned_changes is unknown") {
		t.Fatalf("the plan exited %d or does not say the batch it waits for is still running:\n%s", code, out)
	}
	if _, known := plannedChangesOfPlan(t, ws, "p.tfplan", "rms_list_contacts.l"); known {
		t.Errorf("planned_changes is known in a plan made while the batch it resumes runs")
	}
	later.Store(int64(2 * time.Hour)) // the batch finishes before the apply
	out, code := ws.Run("apply", "-no-color", "p.tfplan")
	if code != 0 {
		t.Fatalf("the apply of the saved plan, resuming the batch, exited %d:\n%s", code, out)
	}
	if got := uploads(env); got != 1 {
		t.Errorf("%d import uploads, want 1: the apply imported again instead of resuming", got)
	}
	wantStatuses(t, listContactsOf(t, env, listID), rowIDs(1, n), "SUBSCRIBED", "SUBSCRIBED")
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the resumed apply is not empty (exit %d):\n%s", code, out)
	}
}

// TestAccListContactsFileOptOutAfterPlan: with a source file, a recipient
// the file names opts out between `terraform plan -out` and `terraform
// apply PLANFILE`, and one the file does not name signs up. The apply
// writes what the plan counted (a renamed contact, a new one), keeps the
// opt-out, leaves the sign-up, and names both.
func TestAccListContactsFileOptOutAfterPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Write("contacts.csv", "originalId,firstname\na,Ann\nb,Ben\nc,Cy\n")
	ws.Configure(env, fmt.Sprintf(`
resource "rms_list_contacts" "l" {
  list_id     = %q
  source_file = "${path.module}/contacts.csv"
}
`, listID))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	ws.Write("contacts.csv", "originalId,firstname\na,Ann\nb,Benjamin\nc,Cy\nd,Dee\n")
	if out, code := ws.Run("plan", "-out=p.tfplan", "-no-color"); code != 0 {
		t.Fatalf("the plan exited %d:\n%s", code, out)
	}
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/a/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "late"}, nil)
	out, code := ws.Run("apply", "-no-color", "p.tfplan")
	if code != 0 || !acctest.Contains(out, "Contacts changed since the plan left as they are", "2 contacts of list "+listID, `"a"`, `"late"`) {
		t.Fatalf("the apply of the saved plan did not go through naming both (exit %d):\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	if got["a"].Status != "UNSUBSCRIBED" || got["b"].Properties["firstname"] != "Benjamin" || got["d"].Properties["firstname"] != "Dee" {
		t.Errorf("after the apply the service holds %v", got)
	}
	if _, ok := got["late"]; !ok {
		t.Errorf("the late sign-up is gone: %v", got)
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply is not empty (exit %d): the opt-out and the sign-up are the recipients', nothing is left to do:\n%s", code, out)
	}
}
