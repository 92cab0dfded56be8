package provider_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A map that manages a few contacts of a larger list: the listing keeps
// the properties of the contacts the map names only (the others' statuses
// are all a plan needs of them). A contact the configuration adds that the
// service already holds is compared with its values on the service, not
// taken for new: one that already has the configured values is not
// written, one that differs is updated, by one call. Opt-outs, named or
// not, stay, and no contact the map does not name changes status.
func TestAccListContactsMapSubsetOfList(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	id, err := strconv.ParseInt(listID, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	props := func(i int, first string) map[string]string {
		return map[string]string{"email": fmt.Sprintf("s%03d@example.com", i), "firstname": first}
	}
	seed := make([]emulator.Contact, 300)
	for i := range seed {
		seed[i] = emulator.Contact{OriginalID: fmt.Sprintf("s-%03d", i), Properties: props(i, "Seed")}
	}
	// Two opt-outs: one the map names, one it does not.
	optedOut := map[string]bool{"s-002": true, "s-200": true}
	for i := range seed {
		if optedOut[seed[i].OriginalID] {
			seed[i].Status = "UNSUBSCRIBED"
		}
	}
	if err := env.Emulator.UpsertContacts(id, seed); err != nil {
		t.Fatal(err)
	}
	writes := func() int64 {
		st := env.Emulator.Requests()
		return st.ByMethod["POST"] + st.ByMethod["PUT"]
	}
	base := writes()
	two := map[string]listContact{"s-001": {props: props(1, "Seed")}, "s-002": {props: props(2, "Seed")}}
	four := map[string]listContact{
		"s-001": {props: props(1, "Seed")}, "s-002": {props: props(2, "Seed")},
		"s-150": {props: props(150, "Seed")},    // on the service already, as configured
		"s-151": {props: props(151, "Changed")}, // on the service, with another firstname
	}
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, listContactsConfig(listID, two, ""))
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("apply of two contacts (exit %d):\n%s", code, out)
	}
	if n := writes() - base; n != 0 {
		t.Errorf("taking over two contacts as they are wrote %d times, want none", n)
	}

	// The plan names s-151 alone as changing: it compared s-150 and s-151
	// with their values on the service, which Read's listing (the two
	// contacts of the state) had not kept.
	ws.Configure(env, listContactsConfig(listID, four, ""))
	out, code := ws.Run("plan", "-no-color")
	if code != 0 || !acctest.Contains(out, "Changes to the contacts of list "+listID, `1 with properties to change: "s-151"`) {
		t.Errorf("the plan of two more contacts the list holds (exit %d):\n%s", code, out)
	}
	if acctest.Contains(out, "to create") {
		t.Errorf("the plan takes contacts the list holds for new:\n%s", out)
	}
	if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("apply of four contacts (exit %d):\n%s", code, out)
	}
	if n := writes() - base; n != 1 {
		t.Errorf("adding two contacts the list holds, one as configured, wrote %d times, want 1", n)
	}
	got := listContactsOf(t, env, listID)
	if got["s-151"].Properties["firstname"] != "Changed" || got["s-150"].Properties["firstname"] != "Seed" || len(got) != 300 {
		t.Errorf("after the apply: s-150 %+v, s-151 %+v, %d contacts", got["s-150"], got["s-151"], len(got))
	}
	// Nobody was unsubscribed or re-subscribed: the opt-outs stay, and
	// the contacts the map does not name keep their statuses.
	for id, c := range got {
		if want := map[bool]string{true: "UNSUBSCRIBED", false: "SUBSCRIBED"}[optedOut[id]]; c.Status != want {
			t.Errorf("%s is %s after the applies, want %s", id, c.Status, want)
		}
	}
	if out, code := ws.Run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Errorf("the plan after the apply is not empty (exit %d):\n%s", code, out)
	}
}
