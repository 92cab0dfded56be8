package provider_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A replaced rms_list (here `terraform apply -replace`, as a user runs it;
// any change that forces a new list acts the same) replaces the
// rms_list_contacts that names it, destroy first: the new list must keep
// the opt-outs its recipients made in the old one (e-mail, mobile, both),
// name them in a warning, and leave the next plan empty; allow_resubscribe
// subscribes them as configured. Four lists in one working directory, so
// that one provider build and one apply cover a map input, a file input
// above batch_threshold (import batches plus single calls),
// allow_resubscribe, and a tainted rms_list_contacts (no consent record to
// pass on: the opt-outs are kept all the same).
func TestAccListContactsReplacedListKeepsOptOuts(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	w := acctest.NewWorkspace(t)
	ids := func(p string) []string {
		return []string{p + "-both", p + "-email", p + "-free", p + "-mobile", p + "-ok"}
	}
	mapInput := func(p string) string {
		var b strings.Builder
		for _, id := range ids(p) {
			status := ", email_status = \"SUBSCRIBED\", mobile_status = \"SUBSCRIBED\""
			if strings.HasSuffix(id, "-free") {
				status = "" // both channels left to the service
			}
			fmt.Fprintf(&b, "    %q = { properties = { email = \"%s@example.com\" }%s }\n", id, id, status)
		}
		return b.String()
	}
	csv := "originalId,email,email_status,mobile_status\n"
	for _, id := range ids("f") {
		if strings.HasSuffix(id, "-free") {
			csv += id + "," + id + "@example.com,,\n"
		} else {
			csv += id + "," + id + "@example.com,SUBSCRIBED,SUBSCRIBED\n"
		}
	}
	w.Write("contacts.csv", csv)
	w.Configure(env, fmt.Sprintf(`
resource "rms_list" "m" {
  name                = "Map"
  deletion_protection = false
}
resource "rms_list" "f" {
  name                = "File"
  deletion_protection = false
}
resource "rms_list" "r" {
  name                = "Resubscribe"
  deletion_protection = false
}
resource "rms_list" "t" {
  name                = "Tainted"
  deletion_protection = false
}

resource "rms_list_contacts" "m" {
  list_id  = rms_list.m.id
  contacts = {
%s  }
}

resource "rms_list_contacts" "f" {
  list_id         = rms_list.f.id
  source_file     = "contacts.csv"
  batch_threshold = 1
}

resource "rms_list_contacts" "r" {
  list_id           = rms_list.r.id
  allow_resubscribe = true
  contacts = {
%s  }
}

resource "rms_list_contacts" "t" {
  list_id  = rms_list.t.id
  contacts = {
%s  }
}
`, mapInput("m"), mapInput("r"), mapInput("t")))
	if out, rc := w.Run("apply", "-auto-approve", "-no-color"); rc != 0 {
		t.Fatalf("first apply: exit %d\n%s", rc, out)
	}
	listOf := func(name string) string {
		t.Helper()
		inst, ok := w.Instance("rms_list", name)
		if !ok {
			t.Fatalf("rms_list.%s is not in the state", name)
		}
		return fmt.Sprint(inst.Attributes["id"])
	}
	// The recipients opt out on the service's own call, as a hosted opt-out
	// page does.
	old := map[string]string{}
	for _, p := range []string{"m", "f", "r", "t"} {
		old[p] = listOf(p)
		for suffix, body := range map[string]map[string]any{
			"-email":  {"status": "UNSUBSCRIBED"},
			"-both":   {"status": "UNSUBSCRIBED", "mobileStatus": "UNSUBSCRIBED"},
			"-mobile": {"mobileStatus": "UNSUBSCRIBED"},
			"-free":   {"status": "UNSUBSCRIBED"},
		} {
			env.MustDo(t, "PUT", "lists/"+old[p]+"/contacts/"+p+suffix+"/subscriptionstatus", body, nil)
		}
	}

	if out, rc := w.Run("taint", "-no-color", "rms_list_contacts.t"); rc != 0 {
		t.Fatalf("taint: exit %d\n%s", rc, out)
	}
	out, rc := w.Run("apply", "-auto-approve", "-no-color", "-replace=rms_list.m", "-replace=rms_list.f", "-replace=rms_list.r", "-replace=rms_list.t")
	if rc != 0 {
		t.Fatalf("replacing the lists: exit %d\n%s", rc, out)
	}
	for _, p := range []string{"m", "f", "r", "t"} {
		if !acctest.Contains(out, "rms_list_contacts."+p) || !strings.Contains(out, "rms_list_contacts."+p+": Creating...") {
			t.Errorf("rms_list_contacts.%s was not replaced:\n%s", p, out)
		}
	}
	for _, p := range []string{"m", "f", "t"} {
		named := fmt.Sprintf(`"%s-both", "%s-email", "%s-free", "%s-mobile"`, p, p, p, p)
		// The plan names them too, where it can: a tainted object's plan
		// has no prior state to tell it the old list.
		if plan := acctest.Contains(out, "Opt-outs of list "+old[p]+" to keep in the new list", "4 contacts of the input had opted out of list "+old[p], named); plan != (p != "t") {
			t.Errorf("rms_list_contacts.%s: plan warning naming %s shown: %v\n%s", p, named, plan, out)
		}
		if !acctest.Contains(out, "Opt-outs of list "+old[p]+" kept in list "+listOf(p), "4 contacts had opted out of list "+old[p], named) {
			t.Errorf("the apply did not name rms_list_contacts.%s's opt-outs (%s):\n%s", p, named, out)
		}
	}
	if acctest.Contains(out, "Opt-outs of list "+old["r"]) {
		t.Errorf("allow_resubscribe: the apply says r's opt-outs were kept:\n%s", out)
	}

	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	kept := map[string][2]string{"-both": {U, U}, "-email": {U, S}, "-mobile": {S, U}, "-ok": {S, S}, "-free": {U, ""}}
	resubscribed := map[string][2]string{"-both": {S, S}, "-email": {S, S}, "-mobile": {S, S}, "-ok": {S, S}}
	for p, want := range map[string]map[string][2]string{"m": kept, "f": kept, "r": resubscribed, "t": kept} {
		newList := listOf(p)
		if newList == old[p] {
			t.Fatalf("rms_list.%s kept its id %s", p, newList)
		}
		got := listContactsOf(t, env, newList)
		for suffix, st := range want {
			c, ok := got[p+suffix]
			switch {
			case !ok:
				t.Errorf("list %s (rms_list.%s) lacks %s%s", newList, p, p, suffix)
			case c.Status != st[0] || (st[1] != "" && c.MobileStatus != st[1]):
				t.Errorf("%s%s in the new list %s: e-mail %s, mobile %s; want %s, %s", p, suffix, newList, c.Status, c.MobileStatus, st[0], st[1])
			}
		}
	}

	if out, rc := w.Run("plan", "-detailed-exitcode", "-no-color"); rc != 0 {
		t.Errorf("the plan after the replacement is not empty (exit %d):\n%s", rc, out)
	}
}

// A list_id changed to a list that already exists (the plan knows the new
// id, so the opt-outs go by it): a contact the new list does not have is
// added unsubscribed on the channel it had opted out of in the old list; a
// contact the new list already has keeps the status it shows there; the
// old list is left as it is.
func TestAccListContactsReplaceOtherListKeepsOptOuts(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	oldList, newList := newTestList(t, env), newTestList(t, env)
	env.MustDo(t, "POST", "lists/"+newList+"/contacts", map[string]any{"originalId": "cy", "properties": map[string]any{"email": "cy@example.com"}, "status": "SUBSCRIBED"}, nil)
	contacts := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com"}, email: "SUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com"}, email: "SUBSCRIBED"},
		"cy":  {props: map[string]string{"email": "cy@example.com"}, email: "SUBSCRIBED"},
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(listContactsConfig(oldList, contacts, ""))},
			{
				PreConfig: func() {
					for _, id := range []string{"bob", "cy"} {
						env.MustDo(t, "PUT", "lists/"+oldList+"/contacts/"+id+"/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
					}
				},
				Config: env.Config(listContactsConfig(newList, contacts, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", destroyFirst),
				}},
				Check: resource.ComposeTestCheckFunc(
					expectEmailStatuses(t, env, newList, map[string]string{"ada": "SUBSCRIBED", "bob": "UNSUBSCRIBED", "cy": "SUBSCRIBED"}),
					expectEmailStatuses(t, env, oldList, map[string]string{"ada": "SUBSCRIBED", "bob": "UNSUBSCRIBED", "cy": "UNSUBSCRIBED"}),
				),
			},
		},
	})
}

// The opt-outs a replaced list carried survive a create cut short: its
// ADD import does not finish within timeouts.create (the create ends with
// a warning, before the single calls that add the opted-out contacts
// unsubscribed), the carried opt-outs stay in private state, and the next
// apply, once the batch has finished, adds those contacts unsubscribed.
func TestAccListContactsReplacedListOptOutsSurviveTimeout(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	clock := &pollClock{base: time.Now().UTC()}
	env := acctest.NewEnv(t, emulator.Options{Now: clock.Now, BatchPendingFor: time.Hour})
	clock.env = env
	w := acctest.NewWorkspace(t)
	w.Write("contacts.csv", "originalId,email,email_status,mobile_status\n"+
		"a-ok,a-ok@example.com,SUBSCRIBED,SUBSCRIBED\nb-ok,b-ok@example.com,SUBSCRIBED,SUBSCRIBED\n"+
		"c-both,c-both@example.com,SUBSCRIBED,SUBSCRIBED\nd-mobile,d-mobile@example.com,SUBSCRIBED,SUBSCRIBED\n")
	config := func(extra string) string {
		return `
resource "rms_list" "l" {
  name                = "L"
  deletion_protection = false
}
resource "rms_list_contacts" "c" {
  list_id     = rms_list.l.id
  source_file = "contacts.csv"
` + extra + "}\n"
	}
	w.Configure(env, config(""))
	if out, rc := w.Run("apply", "-auto-approve", "-no-color"); rc != 0 {
		t.Fatalf("first apply: exit %d\n%s", rc, out)
	}
	listOf := func() string {
		t.Helper()
		inst, _ := w.Instance("rms_list", "l")
		return fmt.Sprint(inst.Attributes["id"])
	}
	oldList := listOf()
	env.MustDo(t, "PUT", "lists/"+oldList+"/contacts/c-both/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED", "mobileStatus": "UNSUBSCRIBED"}, nil)
	env.MustDo(t, "PUT", "lists/"+oldList+"/contacts/d-mobile/subscriptionstatus", map[string]any{"mobileStatus": "UNSUBSCRIBED"}, nil)

	// The emulator's clock stands still: the ADD import stays PENDING.
	w.Configure(env, config("  batch_threshold = 1\n  timeouts {\n    create = \"2s\"\n  }\n"))
	out, rc := w.Run("apply", "-auto-approve", "-no-color", "-replace=rms_list.l")
	if rc != 0 || !acctest.Contains(out, "has not finished") {
		t.Fatalf("the replacement's create was to end with a warning that its import has not finished (exit %d):\n%s", rc, out)
	}
	newList := listOf()
	if got := listContactsOf(t, env, newList); len(got) != 0 {
		t.Fatalf("the new list %s holds %v before its batch ran", newList, got)
	}
	inst, _ := w.Instance("rms_list_contacts", "c")
	var rec struct {
		OptOuts struct {
			Contacts map[string][2]bool `json:"contacts"`
		} `json:"opt_outs"`
	}
	if !inst.PrivateKey(t, "applied", &rec) || len(rec.OptOuts.Contacts) != 2 {
		t.Fatalf("private state keeps no opt-outs of list %s after the create was cut short: %s", oldList, inst.Private)
	}

	clock.arm(1)
	out, rc = w.Run("apply", "-auto-approve", "-no-color")
	if rc != 0 || !acctest.Contains(out, "Opt-outs of list "+oldList+" kept in list "+newList, `"c-both", "d-mobile"`) {
		t.Fatalf("the apply after the timeout did not add the opted-out contacts unsubscribed, naming them (exit %d):\n%s", rc, out)
	}
	got := listContactsOf(t, env, newList)
	for id, want := range map[string][2]string{"a-ok": {"SUBSCRIBED", "SUBSCRIBED"}, "b-ok": {"SUBSCRIBED", "SUBSCRIBED"}, "c-both": {"UNSUBSCRIBED", "UNSUBSCRIBED"}, "d-mobile": {"SUBSCRIBED", "UNSUBSCRIBED"}} {
		if c := got[id]; c.Status != want[0] || c.MobileStatus != want[1] {
			t.Errorf("%s in the new list %s: e-mail %q, mobile %q; want %s, %s", id, newList, c.Status, c.MobileStatus, want[0], want[1])
		}
	}
	if out, rc := w.Run("plan", "-detailed-exitcode", "-no-color"); rc != 0 {
		t.Errorf("the plan after the apply is not empty (exit %d):\n%s", rc, out)
	}
}

// Where the opt-outs cannot be carried, the destroy half says so: a
// contacts map known only at apply (its keys come from the new list) gives
// the create nothing to be found by, and the destroy warns, naming the
// opt-outs it could not pass on; a destroy half that cannot read the old
// list fails, and the old object and its list stay.
func TestAccListContactsReplacedListOptOutsNotCarried(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	w := acctest.NewWorkspace(t)
	w.Configure(env, `
resource "rms_list" "u" {
  name                = "Unknown input"
  deletion_protection = false
}
resource "rms_list" "e" {
  name                = "Unreadable"
  deletion_protection = false
}

resource "rms_list_contacts" "u" {
  list_id  = rms_list.u.id
  contacts = {
    "u-ok${substr(rms_list.u.id, 0, 0)}"    = { email_status = "SUBSCRIBED" }
    "u-email${substr(rms_list.u.id, 0, 0)}" = { email_status = "SUBSCRIBED" }
  }
}

resource "rms_list_contacts" "e" {
  list_id  = rms_list.e.id
  contacts = {
    "e-email" = { email_status = "SUBSCRIBED" }
  }
  timeouts {
    delete = "1ns" # every call of destroy fails: the listing of the old list too
  }
}
`)
	if out, rc := w.Run("apply", "-auto-approve", "-no-color"); rc != 0 {
		t.Fatalf("first apply: exit %d\n%s", rc, out)
	}
	listOf := func(name string) string {
		t.Helper()
		inst, _ := w.Instance("rms_list", name)
		return fmt.Sprint(inst.Attributes["id"])
	}
	oldU, oldE := listOf("u"), listOf("e")
	env.MustDo(t, "PUT", "lists/"+oldU+"/contacts/u-email/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	env.MustDo(t, "PUT", "lists/"+oldE+"/contacts/e-email/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)

	out, rc := w.Run("apply", "-auto-approve", "-no-color", "-replace=rms_list.u", "-replace=rms_list.e")
	if rc == 0 {
		t.Fatalf("the apply was to fail on the unreadable list:\n%s", out)
	}
	if !acctest.Contains(out, "Opt-outs not carried into the new list", "1 contacts of list "+oldU+" had opted out (\"u-email\")") {
		t.Errorf("no warning naming the opt-out of list %s that could not be carried:\n%s", oldU, out)
	}
	if !acctest.Contains(out, "Opt-outs of list "+oldU+" cannot be kept in the new list", `"u-email"`) || acctest.Contains(out, "Opt-outs of list "+oldU+" to keep") {
		t.Errorf("the plan does not say that the opt-out of list %s cannot be kept:\n%s", oldU, out)
	}
	if !acctest.Contains(out, "Unable to read the opt-outs of list "+oldE, "the old object stays in the state") {
		t.Errorf("no error for the opt-outs of list %s that could not be read:\n%s", oldE, out)
	}
	if inst, ok := w.Instance("rms_list_contacts", "e"); !ok || fmt.Sprint(inst.Attributes["list_id"]) != oldE {
		t.Errorf("rms_list_contacts.e left the state or its list: %+v", inst.Attributes)
	}
	if got := listContactsOf(t, env, oldE); got["e-email"].Status != "UNSUBSCRIBED" {
		t.Errorf("list %s lost its opt-out or was deleted: %+v", oldE, got)
	}
}
