package provider_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// laterClock is the emulator's clock, moved two hours on when the test
// says so: a batch pending for an hour then finishes.
type laterClock struct {
	base  time.Time
	later atomic.Bool
}

func (c *laterClock) Now() time.Time {
	if c.later.Load() {
		return c.base.Add(2 * time.Hour)
	}
	return c.base
}

// unjudgedRowsFile has 4 rows, 3 of which the service refuses: rows 3 and
// 4 have one field, row 5 no identity.
var unjudgedRowsFile = heredocContent("originalId,firstname", "x,Xavier", "broken", "also-broken", ",Nobody")

// Refused rows are never lost between applies: the first apply stops
// waiting (timeouts.create), the batch finishes before the next plan with
// 3 rows refused against max_failed_rows = 2. The refresh leaves the
// import unjudged, so the plan is an update (not "No changes"), whose
// apply fails naming the rows; the limit raised to 3 applies with a
// warning naming them. Nothing is uploaded twice.
func TestAccListImportResource_refusedRowsFoundLateResumes(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &laterClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	list := importList(t, env)
	config := func(limit int) string {
		return importConfig(list, "ADD", unjudgedRowsFile, "timeouts {\n    create = \"2s\"\n  }", fmt.Sprintf("max_failed_rows = %d", limit))
	}
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, config(2))
	named := []string{"3 of 4 rows of the file could not be imported", "row 3: 1 field where the header has 2", "row 4: 1 field where the header has 2", `row 5: the identity column "originalId" is empty`}

	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 || !acctest.Contains(out, "has not finished") {
		t.Fatalf("the first apply should stop waiting with a warning (exit %d):\n%s", code, out)
	}
	clock.later.Store(true) // the batch finishes between the two applies

	out, code = ws.Run("plan", "-detailed-exitcode", "-no-color")
	if code != 2 || !acctest.Contains(out, "rms_list_import.test will be updated in-place") {
		t.Errorf("the plan after the batch finished with refused rows is not an update (exit %d):\n%s", code, out)
	}
	if want := []string{"Warning: Import rows refused since the last apply", "refused 3 rows", "more than max_failed_rows (2) allows", "at least 3"}; !acctest.Contains(out, want...) {
		t.Errorf("the plan does not say why it updates %q:\n%s", want, out)
	}
	out, code = ws.Run("apply", "-auto-approve", "-no-color")
	if want := append([]string{"Error: Import rows refused", "more than max_failed_rows (2) allows"}, named...); code == 0 || !acctest.Contains(out, want...) {
		t.Errorf("the apply after the batch finished does not fail naming the rows %q (exit %d):\n%s", want, code, out)
	}
	if diff := cmp.Diff(map[string]string{"x": "firstname=Xavier SUBSCRIBED"}, listContacts(t, env, list)); diff != "" {
		t.Errorf("contacts of the list (-want +got):\n%s", diff)
	}

	ws.Configure(env, config(3))
	out, code = ws.Run("apply", "-auto-approve", "-no-color")
	if want := append([]string{"Warning: Import rows refused", "max_failed_rows (3) allows them"}, named...); code != 0 || !acctest.Contains(out, want...) {
		t.Errorf("the limit raised to the refused rows does not apply with a warning naming them %q (exit %d):\n%s", want, code, out)
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the accepted import is not empty (exit %d):\n%s", code, out)
	}
	wantUploads(t, env, 1)
}
