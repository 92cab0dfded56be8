package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Moving rms_list_contacts to another list with create_before_destroy and
// on_destroy = "unsubscribe" unsubscribes nobody on the old list, as the
// default order does: the deposed object's destroy runs
// after the create, finds the create by its input, and lets the old list
// be. The plan says nothing of unsubscribing. A recipient's opt-out on the
// old list stays there; it does not reach the new list in this order (the
// create runs before anything reads the old list), and the plan says so.
func TestAccListContactsMoveCreateBeforeDestroyUnsubscribesNobody(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	watchUnsubscriptions(t, env)
	listA, listB := newTestList(t, env), newTestList(t, env)
	contacts := map[string]listContact{}
	for i := 1; i <= 20; i++ {
		id := fmt.Sprintf("m-%02d", i)
		contacts[id] = listContact{props: map[string]string{"email": id + "@example.com"}, email: "SUBSCRIBED", mobile: "SUBSCRIBED"}
	}
	extra := "  on_destroy = \"unsubscribe\"\n  lifecycle {\n    create_before_destroy = true\n  }\n"
	w := acctest.NewWorkspace(t)
	w.Configure(env, listContactsConfig(listA, contacts, extra))
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("first apply failed:\n%s", out)
	}
	env.MustDo(t, "PUT", "lists/"+listA+"/contacts/m-03/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	mark := unsubscriptions(env)

	w.Configure(env, listContactsConfig(listB, contacts, extra))
	out, code := w.Run("plan", "-no-color")
	if code != 0 || !strings.Contains(out, "must be replaced") || !strings.Contains(out, "create replacement and then destroy") {
		t.Fatalf("plan: want a create_before_destroy replacement (exit %d):\n%s", code, out)
	}
	if strings.Contains(out, "Destroy unsubscribes") || strings.Contains(out, "unsubscribes ") {
		t.Errorf("the plan speaks of unsubscribing:\n%s", out)
	}
	if !acctest.Contains(out, "Opt-outs of list "+listA+" to keep in the new list", "m-03", "with create_before_destroy it cannot") {
		t.Errorf("the plan does not say that the opt-out of m-03 cannot be kept in this order:\n%s", out)
	}
	if out, code := w.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("the move failed:\n%s", out)
	}
	if n := unsubscriptions(env) - mark; n != 0 {
		t.Errorf("the move unsubscribed %d contacts (contact.unsubscribed events), want none", n)
	}
	a, b := listContactsOf(t, env, listA), listContactsOf(t, env, listB)
	for id := range contacts {
		want := "SUBSCRIBED"
		if id == "m-03" {
			want = "UNSUBSCRIBED" // the recipient's own opt-out
		}
		if a[id].Status != want || a[id].MobileStatus != "SUBSCRIBED" {
			t.Errorf("list A: %s is %s/%s, want %s/SUBSCRIBED", id, a[id].Status, a[id].MobileStatus, want)
		}
		if b[id].Status != "SUBSCRIBED" || b[id].MobileStatus != "SUBSCRIBED" {
			t.Errorf("list B: %s is %s/%s, want SUBSCRIBED/SUBSCRIBED as the input says", id, b[id].Status, b[id].MobileStatus)
		}
	}
}
