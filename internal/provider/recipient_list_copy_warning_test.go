package provider_test

import (
	"fmt"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The destroy plan of an rms_list that names a suppression list, without
// its rms_list_contacts to hand a consent record over, warns with the
// counts its delete copies and cannot tell apart: "news" holds three
// contacts unsubscribed from e-mail and one from mobile, and the plan says
// so, naming the suppression list, the attribute and the way out; the
// apply copies exactly those. "quiet", whose contacts are all subscribed,
// is destroyed without the warning. Before, the plan said nothing.
func TestAccListDestroyWarnsOfTheSuppressionCopy(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	t.Parallel()
	env := acctest.NewEnv(t, emulator.Options{})
	sup := newTestList(t, env)
	ws := acctest.NewWorkspace(t)
	list := func(name string) string {
		return fmt.Sprintf(`
resource "rms_list" %[1]q {
  name                = %[1]q
  suppression_list_id = %[2]q
  deletion_protection = false
}
`, name, sup)
	}
	ws.Configure(env, list("news")+list("quiet"))
	mustApply(t, ws, "the lists")
	idOf := func(name string) string {
		t.Helper()
		l, ok := ws.Instance("rms_list", name)
		if !ok {
			t.Fatalf("rms_list.%s is not in the state", name)
		}
		return fmt.Sprint(l.Attributes["id"])
	}
	news, quiet := idOf("news"), idOf("quiet")
	contact := func(id, email, mobile string) emulator.Contact {
		return emulator.Contact{OriginalID: id, Properties: map[string]string{"email": id + "@example.com"}, Status: email, MobileStatus: mobile}
	}
	seedContacts(t, env, news,
		contact("a", "UNSUBSCRIBED", "SUBSCRIBED"),
		contact("b", "UNSUBSCRIBED", "UNSUBSCRIBED"),
		contact("c", "SUBSCRIBED", "SUBSCRIBED"),
		contact("d", "UNSUBSCRIBED", "SUBSCRIBED"),
	)
	seedContacts(t, env, quiet, contact("q", "SUBSCRIBED", "SUBSCRIBED"))

	ws.Configure(env, `# the lists are removed`)
	out := planExit(t, ws, "the destroy", 2)
	for _, want := range []string{
		"Unsubscribed contacts copied into the suppression list",
		fmt.Sprintf("Deleting list %s (rms_list \"news\") copies 3 unsubscribed e-mail and 1 mobile statuses into suppression list %s (suppression_list_id)", news, sup),
		"cannot be told apart",
		"remove the rms_list_contacts together with this rms_list",
		"remove suppression_list_id and apply that first",
	} {
		if !acctest.Contains(out, want) {
			t.Fatalf("the destroy plan does not say %q:\n%s", want, out)
		}
	}
	if acctest.Contains(out, "Deleting list "+quiet+" ") {
		t.Fatalf("the destroy plan warns about list %s, which holds no unsubscribed contact:\n%s", quiet, out)
	}

	mustApply(t, ws, "the destroy")
	held := listContactsOf(t, env, sup)
	want := map[string][2]string{"a": {"UNSUBSCRIBED", "SUBSCRIBED"}, "b": {"UNSUBSCRIBED", "UNSUBSCRIBED"}, "d": {"UNSUBSCRIBED", "SUBSCRIBED"}}
	if len(held) != len(want) {
		t.Fatalf("the suppression list holds %v, want a, b and d", held)
	}
	for id, st := range want {
		if c := held[id]; c.Status != st[0] || c.MobileStatus != st[1] {
			t.Errorf("the suppression list holds %s as %s/%s, want %s/%s", id, c.Status, c.MobileStatus, st[0], st[1])
		}
	}
}
