package provider_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// summaryRows renders a CSV (originalId, email, firstname, email_status)
// from rows of id -> firstname, status.
func summaryRows(rows [][3]string) string {
	var b strings.Builder
	b.WriteString("originalId,email,firstname,email_status\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s@example.com,%s,%s\n", r[0], r[0], r[1], r[2])
	}
	return b.String()
}

// summaryCount reads the count of one kind from a plan's summary warning
// ("3 to create (new to the list): ..."); 0 when the kind is not there.
func summaryCount(t *testing.T, out, kind string) int {
	t.Helper()
	flat := strings.Join(strings.Fields(out), " ")
	m := regexp.MustCompile(`(\d+) ` + regexp.QuoteMeta(kind)).FindStringSubmatch(flat)
	if m == nil {
		return 0
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A realistic change to an exclusive list read from a file: new rows,
// edited names, rows set UNSUBSCRIBED, a row set SUBSCRIBED again, rows
// removed, and a recipient's opt-out. The plan counts each kind for the
// reviewer, the apply does exactly that (counted on the service
// afterwards), and the apply, which plans again without a listing at hand,
// does not say it could not count.
func TestAccListContactsPlanSummary(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, exclusiveFileConfig(listID, ""))
	var before [][3]string
	for i := 1; i <= 20; i++ {
		st := "SUBSCRIBED"
		if i == 20 {
			st = "UNSUBSCRIBED"
		}
		before = append(before, [3]string{fmt.Sprintf("p-%02d", i), fmt.Sprintf("Name%d", i), st})
	}
	ws.Write("contacts.csv", summaryRows(before))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	// p-05 opts out on the service's own call.
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/p-05/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)

	var after [][3]string
	for _, r := range before[:18] { // p-19 and p-20 removed: exclusive unsubscribes p-19 (p-20 is already)
		switch r[0] {
		case "p-01", "p-02", "p-03":
			r[1] += " Edited"
		case "p-06", "p-07":
			r[2] = "UNSUBSCRIBED"
		}
		after = append(after, r)
	}
	after = append(after, [3]string{"p-20", "Name20", "SUBSCRIBED"}) // the file subscribes it again
	for i := 21; i <= 23; i++ {
		after = append(after, [3]string{fmt.Sprintf("p-%02d", i), fmt.Sprintf("Name%d", i), "SUBSCRIBED"})
	}
	ws.Write("contacts.csv", summaryRows(after))
	plan, code := ws.Run("plan", "-no-color")
	if code != 0 {
		t.Fatalf("the plan exited %d:\n%s", code, plan)
	}
	_, summary, found := strings.Cut(plan, "Warning: Changes to the contacts")
	if !found {
		t.Fatalf("the plan has no summary of the changes:\n%s", plan)
	}
	t.Logf("the plan's summary:\nWarning: Changes to the contacts%s", summary)
	want := map[string]int{
		"to create (new to the list)":                                                3,
		"with properties to change":                                                  3,
		"to unsubscribe (e-mail or mobile), as the input says":                       2,
		"to subscribe (e-mail or mobile), as the input says":                         1,
		"to unsubscribe from e-mail and mobile because the input does not name them": 1,
		"opted out outside Terraform":                                                0, // exclusive: worded as "cannot tell"
		"are UNSUBSCRIBED though the configuration says SUBSCRIBED":                  1,
	}
	for kind, n := range want {
		if got := summaryCount(t, plan, kind); got != n {
			t.Errorf("the plan counts %d %q, want %d:\n%s", got, kind, n, plan)
		}
	}

	const routeListing = "GET /rest/{customerid}/lists/{id}/contacts"
	listings := env.Emulator.Requests().ByRoute[routeListing]
	out, code := ws.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Fatalf("the apply exited %d:\n%s", code, out)
	}
	// One listing for the plan's refresh, one the apply writes from: the
	// apply's own plan, in another provider process, reads none.
	if n := env.Emulator.Requests().ByRoute[routeListing] - listings; n != 2 {
		t.Errorf("the apply listed the list %d times, want 2", n)
	}
	if acctest.Contains(out, "not counted") {
		t.Errorf("the apply says it could not count, though the plan's refresh read the list:\n%s", out)
	}
	got := listContactsOf(t, env, listID)
	counts := map[string]int{}
	for id, c := range got {
		var n int
		_, _ = fmt.Sscanf(id, "p-%d", &n)
		switch {
		case n >= 21:
			counts["created"]++
		case strings.HasSuffix(c.Properties["firstname"], " Edited"):
			counts["edited"]++
		}
		if c.Status == "UNSUBSCRIBED" {
			counts["unsubscribed"]++
		}
	}
	// Unsubscribed afterwards: p-06, p-07 (the input), p-19 (exclusive),
	// p-05 (the recipient's own opt-out, kept); p-20 subscribed again.
	if counts["created"] != 3 || counts["edited"] != 3 || counts["unsubscribed"] != 4 || got["p-20"].Status != "SUBSCRIBED" || got["p-05"].Status != "UNSUBSCRIBED" {
		t.Errorf("the service holds %v (p-20 %s, p-05 %s), want 3 created, 3 edited, 4 unsubscribed, p-20 subscribed, p-05 still unsubscribed", counts, got["p-20"].Status, got["p-05"].Status)
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the apply is not empty (exit %d):\n%s", code, out)
	} else if acctest.Contains(out, "Opt-outs kept in list "+listID) || acctest.Contains(out, "Changes to the contacts") {
		// p-05's opt-out was named before the apply, which recorded it
		// (list_contacts_optouts_recorded.go): a plan with no change
		// warns of nothing.
		t.Errorf("the no-change plan warns again of the opt-out the apply recorded:\n%s", out)
	}
}
