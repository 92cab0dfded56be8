package provider_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// plannedChangesIn is planned_changes of one resource in the JSON of a
// saved plan (terraform show -json), as a policy reads it; it must be known.
func plannedChangesIn(t *testing.T, ws *acctest.Workspace, planFile, address string) map[string]any {
	t.Helper()
	pc, known := plannedChangesOfPlan(t, ws, planFile, address)
	if !known {
		t.Fatalf("planned_changes of %s is unknown in the plan JSON", address)
	}
	return pc
}

// plannedChangesOfPlan is planned_changes of one resource in the JSON of
// a saved plan, and whether it is known.
func plannedChangesOfPlan(t *testing.T, ws *acctest.Workspace, planFile, address string) (map[string]any, bool) {
	t.Helper()
	out, code := ws.Run("show", "-json", planFile)
	if code != 0 {
		t.Fatalf("terraform show -json exited %d:\n%s", code, out)
	}
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				After        map[string]any `json:"after"`
				AfterUnknown map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(out[findJSON(out):]), &plan); err != nil {
		t.Fatalf("the plan JSON does not parse: %v\n%s", err, out)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address != address {
			continue
		}
		if rc.Change.AfterUnknown["planned_changes"] == true {
			return nil, false
		}
		pc, ok := rc.Change.After["planned_changes"].(map[string]any)
		if !ok {
			t.Fatalf("the plan JSON of %s carries no planned_changes: %v", address, rc.Change.After["planned_changes"])
		}
		return pc, true
	}
	t.Fatalf("the plan JSON has no change of %s:\n%s", address, out)
	return nil, false
}

// findJSON is where the JSON document of terraform's output begins (the
// dev_overrides warning comes first on stderr, merged).
func findJSON(out string) int {
	for i := range out {
		if out[i] == '{' {
			return i
		}
	}
	return 0
}

// count reads one count of planned_changes: "created", or "email.subscribed".
func count(pc map[string]any, name string) int {
	if ch, field, ok := cutDot(name); ok {
		sub, _ := pc[ch].(map[string]any)
		return count(sub, field)
	}
	n, _ := pc[name].(float64)
	return int(n)
}

func cutDot(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// serviceChanges counts, from two readings of the list on the service,
// what planned_changes says the apply does between them.
func serviceChanges(before, after map[string]serverContact) map[string]int {
	got := map[string]int{"list_size": len(before)}
	for id, a := range after {
		b, existed := before[id]
		if !existed {
			got["created"]++
			if a.Status == "UNSUBSCRIBED" || a.MobileStatus == "UNSUBSCRIBED" {
				got["created_unsubscribed"]++
			}
			continue
		}
		for _, ch := range []struct {
			name       string
			was, isNow string
		}{{"email", b.Status, a.Status}, {"mobile", b.MobileStatus, a.MobileStatus}} {
			switch {
			case ch.was != "SUBSCRIBED" && ch.isNow == "SUBSCRIBED":
				got[ch.name+".subscribed"]++
			case ch.was == "SUBSCRIBED" && ch.isNow == "UNSUBSCRIBED":
				got[ch.name+".unsubscribed (both ways)"]++
			}
		}
		if !maps.Equal(a.Properties, b.Properties) {
			got["properties_changed"]++
		}
	}
	return got
}

// TestAccListContactsPlannedChanges: the JSON of a saved plan of a changed
// file carries the counts the plan's warning prints; after the apply of
// that plan the service shows exactly those changes, the state holds the
// planned counts, and the plans that follow (with a refresh, or without)
// show no change.
func TestAccListContactsPlannedChanges(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, exclusiveFileConfig(listID, ""))
	var rows [][3]string
	for i := 1; i <= 20; i++ {
		rows = append(rows, [3]string{fmt.Sprintf("p-%02d", i), fmt.Sprintf("Name%d", i), "SUBSCRIBED"})
	}
	ws.Write("contacts.csv", summaryRows(rows))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	// p-05 opts out on the service's own call: kept.
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/p-05/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	var next [][3]string
	for _, r := range rows[:19] { // p-20 cut: exclusive unsubscribes it
		switch r[0] {
		case "p-01", "p-02":
			r[1] += " Edited"
		case "p-06", "p-07", "p-08":
			r[2] = "UNSUBSCRIBED"
		}
		next = append(next, r)
	}
	next = append(next, [3]string{"p-21", "Name21", "SUBSCRIBED"}, [3]string{"p-22", "Name22", "UNSUBSCRIBED"})
	ws.Write("contacts.csv", summaryRows(next))

	plan, code := ws.Run("plan", "-out=week.tfplan", "-no-color")
	if code != 0 {
		t.Fatalf("the plan exited %d:\n%s", code, plan)
	}
	pc := plannedChangesIn(t, ws, "week.tfplan", "rms_list_contacts.l")
	want := map[string]int{
		"list_size": 20, "created": 2, "created_unsubscribed": 1, "properties_changed": 2, "opt_outs_kept": 1, "suppressed": 0,
		"email.subscribed": 0, "email.unsubscribed": 3, "email.unsubscribed_by_exclusive": 1,
		"mobile.subscribed": 0, "mobile.unsubscribed": 0, "mobile.unsubscribed_by_exclusive": 1,
	}
	for name, n := range want {
		if got := count(pc, name); got != n {
			t.Errorf("planned_changes.%s = %d, want %d (%v)", name, got, n, pc)
		}
	}
	// The warning prints the same numbers.
	for kind, name := range map[string]string{"to create (new to the list)": "created", "with properties to change": "properties_changed",
		"to unsubscribe (e-mail or mobile), as the input says": "email.unsubscribed"} {
		if got := summaryCount(t, plan, kind); got != count(pc, name) {
			t.Errorf("the warning counts %d %q, planned_changes.%s is %d", got, kind, name, count(pc, name))
		}
	}

	before := listContactsOf(t, env, listID)
	if out, code := ws.Run("apply", "-no-color", "week.tfplan"); code != 0 {
		t.Fatalf("the apply of the saved plan exited %d:\n%s", code, out)
	}
	after := listContactsOf(t, env, listID)
	got := serviceChanges(before, after)
	for _, name := range []string{"list_size", "created", "created_unsubscribed", "properties_changed", "email.subscribed", "mobile.subscribed"} {
		if got[name] != count(pc, name) {
			t.Errorf("the service shows %s %d after the apply, the plan said %d (service: %v)", name, got[name], count(pc, name), got)
		}
	}
	for _, ch := range []string{"email", "mobile"} {
		if n := count(pc, ch+".unsubscribed") + count(pc, ch+".unsubscribed_by_exclusive"); got[ch+".unsubscribed (both ways)"] != n {
			t.Errorf("the service shows %d unsubscribed on %s after the apply, the plan said %d (service: %v)", got[ch+".unsubscribed (both ways)"], ch, n, got)
		}
	}
	if after["p-05"].Status != "UNSUBSCRIBED" {
		t.Errorf("the kept opt-out p-05 is %s after the apply", after["p-05"].Status)
	}

	// The state holds the planned counts; a refresh sets them to 0 and a
	// plan with nothing to do keeps them: no diff either way.
	inst, _ := ws.Instance("rms_list_contacts", "l")
	if saved, _ := inst.Attributes["planned_changes"].(map[string]any); !equalJSON(saved, pc) {
		t.Errorf("the state holds planned_changes %v, the plan had %v", saved, pc)
	}
	for _, args := range [][]string{{"plan", "-detailed-exitcode", "-no-color"}, {"plan", "-refresh=false", "-detailed-exitcode", "-no-color"}} {
		if out, code := ws.Run(args...); code != 0 {
			t.Errorf("terraform %v after the apply exited %d, want 0 (no change):\n%s", args, code, out)
		}
	}
	if out, code := ws.Run("apply", "-refresh-only", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the refresh exited %d:\n%s", code, out)
	}
	inst, _ = ws.Instance("rms_list_contacts", "l")
	refreshed, _ := inst.Attributes["planned_changes"].(map[string]any)
	for name := range want {
		if n := count(refreshed, name); n != 0 || refreshed == nil {
			t.Errorf("after a refresh planned_changes.%s is %d, want 0 (%v)", name, n, refreshed)
		}
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the refresh exited %d, want 0 (no change):\n%s", code, out)
	}
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestAccListContactsPlannedChangesListChanged: a recipient opts out
// between `terraform plan -out` and `terraform apply PLANFILE`. The apply
// goes through (Terraform's final plan counts what the reviewed plan
// counted), writes what the plan counted, keeps the opt-out and names the
// contact; the state holds the plan's counts, and the next plan has nothing
// to do.
func TestAccListContactsPlannedChangesListChanged(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	contacts := map[string]listContact{
		"a": {props: map[string]string{"firstname": "Ann"}, email: "SUBSCRIBED"},
		"b": {props: map[string]string{"firstname": "Ben"}, email: "SUBSCRIBED"},
	}
	ws.Configure(env, listContactsConfig(listID, contacts, ""))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	contacts["a"] = listContact{props: map[string]string{"firstname": "Anna"}, email: "SUBSCRIBED"}
	contacts["b"] = listContact{props: map[string]string{"firstname": "Benjamin"}, email: "SUBSCRIBED"}
	contacts["c"] = listContact{props: map[string]string{"firstname": "Cy"}, email: "SUBSCRIBED"}
	ws.Configure(env, listContactsConfig(listID, contacts, ""))
	if out, code := ws.Run("plan", "-out=p.tfplan", "-no-color"); code != 0 {
		t.Fatalf("the plan exited %d:\n%s", code, out)
	}
	pc := plannedChangesIn(t, ws, "p.tfplan", "rms_list_contacts.c")
	if count(pc, "created") != 1 || count(pc, "properties_changed") != 2 || count(pc, "opt_outs_kept") != 0 {
		t.Fatalf("planned_changes = %v, want 1 created, 2 with properties changed, no opt-out kept", pc)
	}
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/a/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	out, code := ws.Run("apply", "-no-color", "p.tfplan")
	if code != 0 || !acctest.Contains(out, "Contacts changed since the plan left as they are", `"a"`, "An opt-out is kept") {
		t.Fatalf("the apply of the saved plan did not go through naming the opt-out (exit %d):\n%s", code, out)
	}
	got := listContactsOf(t, env, listID)
	if got["a"].Status != "UNSUBSCRIBED" || got["a"].Properties["firstname"] != "Ann" {
		t.Errorf("the contact who opted out after the plan was written: %+v", got["a"])
	}
	if got["b"].Properties["firstname"] != "Benjamin" || got["c"].Status != "SUBSCRIBED" {
		t.Errorf("the apply did not write what the plan counted: %v", got)
	}
	inst, _ := ws.Instance("rms_list_contacts", "c")
	if kept, _ := inst.Attributes["planned_changes"].(map[string]any); kept["properties_changed"] != float64(2) || kept["created"] != float64(1) {
		t.Errorf("the state's planned_changes are not the plan's: %v", inst.Attributes["planned_changes"])
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 2 || !acctest.Contains(out, "firstname") {
		t.Fatalf("the next plan (exit %d) does not write what is left for the contact who opted out (their name):\n%s", code, out)
	}
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the apply planned again exited %d:\n%s", code, out)
	}
	got = listContactsOf(t, env, listID)
	if got["a"].Status != "UNSUBSCRIBED" || got["a"].Properties["firstname"] != "Anna" {
		t.Errorf("after the apply planned again, the contact who opted out is %+v, want UNSUBSCRIBED and renamed", got["a"])
	}
}

// TestAccListContactsPlannedChangesNoRefresh: a plan made with
// -refresh=false cannot count: planned_changes is unknown in its JSON (a
// policy holds it); its apply goes through and the state holds what the
// apply counted.
func TestAccListContactsPlannedChangesNoRefresh(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	contacts := map[string]listContact{"a": {email: "SUBSCRIBED"}}
	ws.Configure(env, listContactsConfig(listID, contacts, ""))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the first apply exited %d:\n%s", code, out)
	}
	contacts["b"] = listContact{email: "SUBSCRIBED"}
	ws.Configure(env, listContactsConfig(listID, contacts, ""))
	if out, code := ws.Run("plan", "-refresh=false", "-out=p.tfplan", "-no-color"); code != 0 {
		t.Fatalf("the plan exited %d:\n%s", code, out)
	}
	if pc, known := plannedChangesOfPlan(t, ws, "p.tfplan", "rms_list_contacts.c"); known {
		t.Fatalf("planned_changes of a plan made with -refresh=false is known: %v", pc)
	}
	if out, code := ws.Run("apply", "-no-color", "p.tfplan"); code != 0 {
		t.Fatalf("the apply exited %d:\n%s", code, out)
	}
	if got := listContactsOf(t, env, listID); got["b"].Status != "SUBSCRIBED" {
		t.Fatalf("b is %q on the service after the apply, want SUBSCRIBED", got["b"].Status)
	}
	inst, _ := ws.Instance("rms_list_contacts", "c")
	if saved, _ := inst.Attributes["planned_changes"].(map[string]any); count(saved, "created") != 1 || count(saved, "list_size") != 1 {
		t.Errorf("the state holds planned_changes %v, want what the apply counted: 1 created, a list of 1", saved)
	}
}
