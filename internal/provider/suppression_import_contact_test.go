package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The account's suppression list honoured by rms_list_import, the
// rms_run_list_import action and rms_contact: recipients it holds are
// never subscribed by them, checked through the emulator's request log
// (method and path of every request) and its contact events (what each
// write did, and whether an import batch or a single call made it).

// requestLog is a slog handler that keeps "METHOD path" of every request
// the emulator logs.
type requestLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *requestLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *requestLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *requestLog) WithGroup(string) slog.Handler            { return l }
func (l *requestLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request" {
		return nil
	}
	var method, p string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "method":
			method = a.Value.String()
		case "path":
			p = a.Value.String()
		}
		return true
	})
	l.mu.Lock()
	l.lines = append(l.lines, method+" "+p)
	l.mu.Unlock()
	return nil
}

// matching is the logged requests whose line contains part.
func (l *requestLog) matching(part string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, part) {
			out = append(out, line)
		}
	}
	return out
}

// contactEvent is a contact event the emulator sent.
type contactEvent struct {
	Event string
	Data  struct {
		ListID       string `json:"listId"`
		OriginalID   string `json:"originalId"`
		Status       string `json:"status"`
		MobileStatus string `json:"mobileStatus"`
		Channel      string `json:"channel"`
		Source       string `json:"source"`
	}
}

// watchSuppressionEvents subscribes a webhook of env's account to the contact
// events that make or subscribe a contact; the emulator records each event
// whether delivered or not.
func watchSuppressionEvents(t *testing.T, env *acctest.Env) {
	t.Helper()
	env.MustDo(t, "POST", "webhooks", map[string]any{
		"url": "http://127.0.0.1:9/hooks", "events": []string{"contact.created", "contact.subscribed"}, "active": true,
	}, nil)
}

// listEvents are the contact events env has sent for list listID.
func listEvents(t *testing.T, env *acctest.Env, listID string) []contactEvent {
	t.Helper()
	var out []contactEvent
	for _, d := range env.Emulator.Deliveries() {
		var e contactEvent
		if err := json.Unmarshal(d.Body, &e); err != nil {
			t.Fatalf("delivery body %s: %v", d.Body, err)
		}
		if e.Data.ListID == listID {
			out = append(out, e)
		}
	}
	return out
}

// expectNeverSubscribed fails when an event shows a contact of suppressed
// (original id -> channels "email", "mobile") made or left subscribed on a
// suppressed channel, or made by an import batch.
func expectNeverSubscribed(t *testing.T, env *acctest.Env, log *requestLog, listID string, suppressed map[string][]string) error {
	for _, e := range listEvents(t, env, listID) {
		channels, held := suppressed[e.Data.OriginalID]
		if !held {
			continue
		}
		if e.Data.Source == "import" {
			return fmt.Errorf("an import batch wrote suppressed contact %q: %s %+v", e.Data.OriginalID, e.Event, e.Data)
		}
		for _, ch := range channels {
			status := e.Data.Status
			if ch == "mobile" {
				status = e.Data.MobileStatus
			}
			if e.Event == "contact.subscribed" && e.Data.Channel == ch || e.Event == "contact.created" && status != "UNSUBSCRIBED" {
				return fmt.Errorf("suppressed contact %q was subscribed on %s: %s %+v", e.Data.OriginalID, ch, e.Event, e.Data)
			}
		}
	}
	// Made with its status in the create itself: no status write follows.
	for id := range suppressed {
		if puts := log.matching("/lists/" + listID + "/contacts/" + id + "/subscriptionstatus"); len(puts) > 0 {
			return fmt.Errorf("suppressed contact %q had status writes %v; it should be created with its status", id, puts)
		}
	}
	return nil
}

// suppressionEnv is an emulator whose requests are logged and whose
// contact events are kept, with a suppression list holding opt-outs:
// "p1" (e-mail), "p2" (P2@Example.com, both channels) and "p3" (mobile).
func suppressionEnv(t *testing.T) (*acctest.Env, *requestLog, string) {
	t.Helper()
	log := &requestLog{}
	env := acctest.NewEnv(t, emulator.Options{Logger: slog.New(log)})
	watchSuppressionEvents(t, env)
	sup := importList(t, env)
	seedContacts(t, env, sup,
		emulator.Contact{OriginalID: "p1", Properties: map[string]string{"email": "p1@example.com"}, Status: "UNSUBSCRIBED", MobileStatus: "SUBSCRIBED"},
		emulator.Contact{OriginalID: "p2", Properties: map[string]string{"email": "P2@Example.com"}, Status: "UNSUBSCRIBED", MobileStatus: "UNSUBSCRIBED"},
		emulator.Contact{OriginalID: "p3", Properties: map[string]string{"email": "p3@example.com"}, Status: "SUBSCRIBED", MobileStatus: "UNSUBSCRIBED"},
	)
	return env, log, sup
}

// The account's suppression list holds across kinds: the same people
// through an ADD import and an rms_contact (a new original id whose
// e-mail, in other letter case, is a suppressed one) into a third list
// stay unsubscribed on the
// channels they opted out of; no import batch row and no status write
// subscribed them; everyone else is subscribed; the next plan is empty.
func TestAccSuppression_importAndContactHonourIt(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env, log, sup := suppressionEnv(t)
	third := importList(t, env)
	// p1 by id; crm-9 by p2's e-mail in other case and with spaces; p3 by
	// id (mobile only); n1 and n2 are nobody's opt-outs.
	const file = "originalId,email,firstname\np1,p1@example.com,Pia\nn1,n1@example.com,Ned\ncrm-9, p2@EXAMPLE.com ,Pat\nn2,n2@example.com,Nia\np3,p3@example.com,Poe\n"
	config := env.Config(fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id             = %[1]q
  type                = "ADD"
  content             = %[2]q
  suppression_list_id = %[3]q
}

resource "rms_contact" "web" {
  list_id             = %[1]q
  original_id         = "web-77"
  properties          = { email = "p2@example.COM", firstname = "Pat" }
  email_status        = "SUBSCRIBED"
  suppression_list_id = %[3]q
}
`, third, file, sup))
	suppressed := map[string][]string{"p1": {"email"}, "crm-9": {"email", "mobile"}, "p3": {"mobile"}, "web-77": {"email", "mobile"}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						got := listContactsOf(t, env, third)
						want := map[string][2]string{
							"p1": {"UNSUBSCRIBED", "SUBSCRIBED"}, "crm-9": {"UNSUBSCRIBED", "UNSUBSCRIBED"}, "p3": {"SUBSCRIBED", "UNSUBSCRIBED"},
							"web-77": {"UNSUBSCRIBED", "UNSUBSCRIBED"}, "n1": {"SUBSCRIBED", "SUBSCRIBED"}, "n2": {"SUBSCRIBED", "SUBSCRIBED"},
						}
						if len(got) != len(want) {
							return fmt.Errorf("list %s holds %+v, want %v", third, got, want)
						}
						for id, st := range want {
							if c := got[id]; c.Status != st[0] || c.MobileStatus != st[1] {
								return fmt.Errorf("contact %s is %s / %s, want %s / %s", id, c.Status, c.MobileStatus, st[0], st[1])
							}
						}
						// The held rows keep the row's other values.
						if c := got["crm-9"]; c.Properties["firstname"] != "Pat" || c.Properties["email"] != " p2@EXAMPLE.com " {
							return fmt.Errorf("crm-9 holds %v, want the row's values", c.Properties)
						}
						return nil
					},
					func(*terraform.State) error { return expectNeverSubscribed(t, env, log, third, suppressed) },
					func(*terraform.State) error {
						// The import batch made the others.
						made := map[string]bool{}
						for _, e := range listEvents(t, env, third) {
							if e.Event == "contact.created" && e.Data.Source == "import" {
								made[e.Data.OriginalID] = true
							}
						}
						if len(made) != 2 || !made["n1"] || !made["n2"] {
							return fmt.Errorf("the import batch made %v, want n1 and n2", made)
						}
						return nil
					},
				),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// A REPLACE import first copies into the suppression list the opt-outs of
// the contacts it removes, and holds back the rows the suppression list
// holds (written once its batch has finished, since it removes every
// contact the uploaded file does not name). A row the service refuses is
// named by its number in the user's file, not in the uploaded one.
func TestAccSuppression_replaceCopiesOptOuts(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env, log, sup := suppressionEnv(t)
	list := importList(t, env)
	seedContacts(t, env, list,
		emulator.Contact{OriginalID: "keep", Properties: map[string]string{"email": "keep@example.com"}},
		emulator.Contact{OriginalID: "gone-1", Properties: map[string]string{"email": "gone1@example.com"}, Status: "UNSUBSCRIBED"},
		emulator.Contact{OriginalID: "gone-2", Properties: map[string]string{"email": "gone2@example.com", "mobile": "+15550002"}, Status: "UNSUBSCRIBED", MobileStatus: "UNSUBSCRIBED"},
		emulator.Contact{OriginalID: "gone-3", Properties: map[string]string{"email": "gone3@example.com"}},
	)
	config := func(file, extra string) string {
		return env.Config(fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id             = %q
  type                = "REPLACE"
  content             = %q
  suppression_list_id = %q
  %s
}
`, list, file, sup, extra))
	}
	// Row 2 is held (p1); the bad row is row 4 of this file, row 3 of the
	// uploaded one.
	const bad = "originalId,email\np1,p1@example.com\nkeep,keep@example.com\nbad,row,extra\nnew,new@example.com\n"
	const good = "originalId,email\nkeep,keep@example.com\np1,p1@example.com\nnew,new@example.com\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      config(bad, ""),
				ExpectError: acctest.ExpectErrorParts("1 of 4 rows of the file could not be imported", "row 4: 3 fields where the header has 2"),
			},
			{
				Config: config(good, ""),
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						got := listContactsOf(t, env, sup)
						for id, st := range map[string][2]string{"gone-1": {"UNSUBSCRIBED", "SUBSCRIBED"}, "gone-2": {"UNSUBSCRIBED", "UNSUBSCRIBED"}} {
							if c, ok := got[id]; !ok || c.Status != st[0] || c.MobileStatus != st[1] {
								return fmt.Errorf("suppression list holds %s as %+v, want %s / %s", id, c, st[0], st[1])
							}
						}
						if c := got["gone-2"]; c.Properties["email"] != "gone2@example.com" || c.Properties["mobile"] != "+15550002" {
							return fmt.Errorf("suppression list holds gone-2 with %v, want its e-mail and mobile", c.Properties)
						}
						if _, ok := got["gone-3"]; ok {
							return fmt.Errorf("suppression list holds gone-3, which never opted out")
						}
						return nil
					},
					func(*terraform.State) error {
						got := listContactsOf(t, env, list)
						if len(got) != 3 || got["keep"].Status != "SUBSCRIBED" || got["new"].Status != "SUBSCRIBED" || got["p1"].Status != "UNSUBSCRIBED" {
							return fmt.Errorf("list %s holds %+v, want keep and new subscribed, p1 unsubscribed", list, got)
						}
						return nil
					},
					func(*terraform.State) error {
						return expectNeverSubscribed(t, env, log, list, map[string][]string{"p1": {"email"}})
					},
				),
			},
		},
	})
}

// The rms_run_list_import action holds suppressed rows back as the
// resource does.
func TestAccSuppression_runListImportAction(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env, log, sup := suppressionEnv(t)
	list := importList(t, env)
	const file = "originalId,email\np1,p1@example.com\nn1,n1@example.com\ncrm-9,P2@EXAMPLE.COM\n"
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{acctest.SkipWithoutActions},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(fmt.Sprintf(`
action "rms_run_list_import" "seed" {
  config {
    list_id             = %q
    type                = "ADD"
    content             = %q
    suppression_list_id = %q
  }
}

resource "terraform_data" "pipeline" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.rms_run_list_import.seed]
    }
  }
}
`, list, file, sup)),
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						got := listContactsOf(t, env, list)
						if len(got) != 3 || got["n1"].Status != "SUBSCRIBED" || got["p1"].Status != "UNSUBSCRIBED" || got["crm-9"].Status != "UNSUBSCRIBED" || got["crm-9"].MobileStatus != "UNSUBSCRIBED" {
							return fmt.Errorf("list %s holds %+v", list, got)
						}
						return nil
					},
					func(*terraform.State) error {
						return expectNeverSubscribed(t, env, log, list, map[string][]string{"p1": {"email"}, "crm-9": {"email", "mobile"}})
					},
				),
			},
		},
	})
}

// rms_contact's plans with a suppression list, as the user reads them: a
// new contact of a suppressed e-mail and an import row are named as staying
// unsubscribed; a recipient's own opt-out the suppression list lacks makes
// an update that names it, whose apply records it; a contact the
// suppression list comes to hold is unsubscribed by an update that names
// it; after each apply the next plan is empty.
func TestAccSuppression_contactPlans(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env, _, sup := suppressionEnv(t)
	list, other := importList(t, env), importList(t, env)
	seedContacts(t, env, other,
		emulator.Contact{OriginalID: "keep", Properties: map[string]string{"email": "keep@example.com"}},
		emulator.Contact{OriginalID: "gone-1", Properties: map[string]string{"email": "gone1@example.com"}, Status: "UNSUBSCRIBED"},
	)
	ws := acctest.NewWorkspace(t)
	ws.Configure(env, fmt.Sprintf(`
resource "rms_contact" "c" {
  for_each            = toset(["c1", "c3", "web"])
  list_id             = %[1]q
  original_id         = each.key
  properties          = { email = each.key == "web" ? "P1@Example.com" : "${each.key}@example.com" }
  email_status        = "SUBSCRIBED"
  suppression_list_id = %[2]q
}

resource "rms_list_import" "test" {
  list_id             = %[1]q
  type                = "ADD"
  content             = "originalId,email\np1,p1@example.com\nn1,n1@example.com\n"
  suppression_list_id = %[2]q
}

resource "rms_list_import" "replace" {
  list_id             = %[3]q
  type                = "REPLACE"
  content             = "originalId,email\nkeep,keep@example.com\n"
  suppression_list_id = %[2]q
}
`, list, sup, other))
	plan := func(wantCode int, want ...string) {
		t.Helper()
		out, code := ws.Run("plan", "-detailed-exitcode", "-no-color")
		if code != wantCode {
			t.Fatalf("plan exited %d, want %d:\n%s", code, wantCode, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("plan does not say %q:\n%s", w, out)
			}
		}
	}
	apply := func() {
		t.Helper()
		if out, code := ws.Run("apply", "-auto-approve", "-no-color"); code != 0 {
			t.Fatalf("apply exited %d:\n%s", code, out)
		}
	}
	plan(2, "Suppressed contact: created unsubscribed", `holds contact "web"`,
		"Suppressed contacts stay unsubscribed", `1 suppressed account-wide stay unsubscribed: "p1" (row 2, e-mail)`,
		"Opt-outs to copy into the suppression list", `"gone-1" (e-mail)`)
	apply()
	if c := getContact(t, env, sup, "gone-1"); c.Status != "UNSUBSCRIBED" || c.Properties["email"] != "gone1@example.com" {
		t.Fatalf("the suppression list holds gone-1 as %+v, want it unsubscribed from e-mail with its address", c)
	}
	if c := getContact(t, env, list, "web"); c.Status != "UNSUBSCRIBED" {
		t.Fatalf("web is %+v, want unsubscribed from e-mail", c)
	}
	plan(0)

	// c1 opts out on the service's own call: recorded by the next apply.
	env.MustDo(t, "PUT", "lists/"+list+"/contacts/c1/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	plan(2, "Opt-out to record in the suppression list", `Contact "c1" of list `+list+` opted out of e-mail`)
	apply()
	if c := getContact(t, env, sup, "c1"); c.Status != "UNSUBSCRIBED" || c.Properties["email"] != "c1@example.com" {
		t.Fatalf("the suppression list holds c1 as %+v, want it unsubscribed from e-mail with its address", c)
	}
	plan(0)

	// c3 opted out in another list, recorded there: unsubscribed here.
	seedContacts(t, env, sup, emulator.Contact{OriginalID: "crm-3", Properties: map[string]string{"email": " C3@example.com"}, Status: "UNSUBSCRIBED"})
	plan(2, "Suppressed contact: unsubscribed", `Contact "c3" of list `+list+` is subscribed to e-mail`)
	apply()
	if c := getContact(t, env, list, "c3"); c.Status != "UNSUBSCRIBED" {
		t.Fatalf("c3 is %+v, want unsubscribed from e-mail", c)
	}
	plan(0, "Suppressed contact: not subscribed")
}

// A suppression_list_id that names no list is refused at plan, by
// rms_contact and rms_list_import alike, before anything is written.
func TestAccSuppression_listNotFound(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	list := importList(t, env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: env.Config(fmt.Sprintf(`
resource "rms_contact" "web" {
  list_id             = %[1]q
  original_id         = "web-1"
  properties          = { email = "web@example.com" }
  suppression_list_id = "999"
}
`, list)),
				ExpectError: acctest.ExpectErrorParts("Unable to use the suppression list 999", `no list has id "999"`),
			},
			{
				Config: env.Config(fmt.Sprintf(`
resource "rms_list_import" "test" {
  list_id             = %[1]q
  type                = "ADD"
  content             = "originalId,email\nn1,n1@example.com\n"
  suppression_list_id = "999"
}
`, list)),
				ExpectError: acctest.ExpectErrorParts("Unable to use the suppression list 999", `no list has id "999"`),
			},
		},
	})
	if got := listContactsOf(t, env, list); len(got) != 0 {
		t.Errorf("list %s holds %v, want nothing written", list, got)
	}
}
