package emulator

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// openFixtures opens a Server preloaded with the fixtures in JSON form.
func openFixtures(t *testing.T, fixtures string) (*Server, error) {
	t.Helper()
	f, err := ParseFixtures(strings.NewReader(fixtures))
	if err != nil {
		t.Fatalf("ParseFixtures: %v", err)
	}
	s, err := Open(Options{Fixtures: f})
	if s != nil {
		t.Cleanup(s.Close)
	}
	return s, err
}

// The example shipped in examples/emulator (and shown in the CI guide)
// loads, and every section of it is served as the guide says.
func TestExampleFixturesLoad(t *testing.T) {
	f, err := ReadFixturesFile(filepath.Join("..", "..", "examples", "emulator", "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(Options{Fixtures: f})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if got, want := s.Loaded(), "loaded fixtures: 2 properties, 1 projects, 2 lists with 3 contacts, 2 triggers, 1 webhooks, 2 other entities"; got != want {
		t.Errorf("Loaded() = %q, want %q", got, want)
	}

	// Numbered in file order from 5 (after the standard properties),
	// skipping the fixed ids 100 and 200.
	props := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/properties", nil))
	var names []string
	for _, p := range props {
		names = append(names, idOf(t, p)+"="+p["name"].(string))
	}
	if diff := cmp.Diff([]string{"1=email", "2=mobile", "3=firstname", "4=lastname", "5=plan", "6=city"}, names); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	lists := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/lists", nil))
	if len(lists) != 2 || idOf(t, lists[0]) != "11" || idOf(t, lists[1]) != "100" || lists[1]["senderEmail"] != "news@example.com" {
		t.Errorf("lists = %v", lists)
	}

	rec := do(t, s, http.MethodGet, "/rest/1000/lists/100/contacts/customer-1791", nil)
	wantStatus(t, rec, http.StatusOK)
	c := decodeObject(t, rec)
	if diff := cmp.Diff(map[string]any{"email": "charles@example.com", "firstname": "Charles"}, c["properties"]); diff != "" {
		t.Errorf("properties by id resolve to names (-want +got):\n%s", diff)
	}
	if c["status"] != "SUBSCRIBED" || c["mobileStatus"] != "UNSUBSCRIBED" {
		t.Errorf("statuses = %v / %v", c["status"], c["mobileStatus"])
	}
	former := decodeObject(t, do(t, s, http.MethodGet, "/rest/1000/lists/100/contacts/customer-1843", nil))
	if former["status"] != "UNSUBSCRIBED" {
		t.Errorf("former subscriber: %v", former)
	}

	trig := decodeObject(t, do(t, s, http.MethodGet, "/rest/1000/triggers/200", nil))
	if trig["channel"] != "EMAIL" {
		t.Errorf("trigger 200 = %v", trig)
	}
	hook := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/webhooks", nil))
	if len(hook) != 1 || hook[0]["hasSecret"] != true || hook[0]["active"] != true || hook[0]["secret"] != nil {
		t.Errorf("webhooks = %v", hook)
	}
	camp := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/campaigns", nil))
	if len(camp) != 1 || camp[0]["listId"] != json.Number("100") {
		t.Errorf("campaigns = %v", camp)
	}

	// New entities continue after the largest id in use.
	created := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "After"})
	if idOf(t, created) != "201" {
		t.Errorf("next id = %s, want 201", idOf(t, created))
	}
	// A message can be sent through a preloaded trigger.
	rec = do(t, s, http.MethodPost, "/rest/1000/triggers/200/messages", map[string]any{"recipient": map[string]any{"email": "ada@example.com"}})
	wantStatus(t, rec, http.StatusCreated)
}

func TestFixturesRefusedWithEveryProblemNamed(t *testing.T) {
	tests := []struct {
		name     string
		fixtures string
		want     []string
	}{
		{"missing mandatory name", `{"lists":[{"description":"x"}]}`, []string{"lists[0].name: name is mandatory"}},
		{"bad sender", `{"lists":[{"name":"L","senderEmail":"News <n@example.com>"}]}`, []string{"lists[0].senderEmail: senderEmail must be a bare e-mail address"}},
		{"property of digits", `{"properties":[{"name":"42"}]}`, []string{"properties[0].name: a property name must not consist of digits only"}},
		{"property twice", `{"properties":[{"name":"plan"},{"name":"plan"}]}`, []string{`properties[1].name: a property named "plan" already exists`}},
		{"standard property again", `{"properties":[{"name":"email"}]}`, []string{`properties[0].name: a property named "email" already exists (id 1)`}},
		{"unknown contact attribute", `{"lists":[{"name":"L","contacts":[{"originalId":"a","properties":{"colour":"red"}}]}]}`, []string{`lists[0].contacts[0].properties.colour: unknown contact attribute "colour"`}},
		{"bad status", `{"lists":[{"name":"L","contacts":[{"originalId":"a","status":"yes"}]}]}`, []string{`lists[0].contacts[0].status: status must be SUBSCRIBED or UNSUBSCRIBED, got "yes"`}},
		{"bad mobile status", `{"lists":[{"name":"L","contacts":[{"originalId":"a","mobileStatus":"no"}]}]}`, []string{`lists[0].contacts[0].mobileStatus: mobileStatus must be`}},
		{"no originalId", `{"lists":[{"name":"L","contacts":[{"properties":{"email":"a@example.com"}}]}]}`, []string{"lists[0].contacts[0].originalId: originalId is mandatory"}},
		{"originalId twice", `{"lists":[{"name":"L","contacts":[{"originalId":"a"},{"originalId":"a"}]}]}`, []string{`lists[0].contacts[1].originalId: "a" appears twice in this list`}},
		{"webhook over plain http", `{"webhooks":[{"url":"http://hooks.example.com/x","events":["message.sent"]}]}`, []string{"webhooks[0].url: url \"http://hooks.example.com/x\" must use https"}},
		{"webhook unknown event", `{"webhooks":[{"url":"https://h.example.com","events":["message.read"]}]}`, []string{"webhooks[0].events: unknown event kind message.read"}},
		{"webhook unknown field", `{"webhooks":[{"url":"https://h.example.com","events":["message.sent"],"hasSecret":true}]}`, []string{"webhooks[0].hasSecret: unknown webhook field"}},
		{"id not an integer", `{"projects":[{"id":"seven","name":"P"}]}`, []string{"projects[0].id: want a positive integer, got seven"}},
		{"id taken by a standard property", `{"projects":[{"id":3,"name":"P"}]}`, []string{"projects[0].id: 3 is taken by a standard property"}},
		{"id twice", `{"projects":[{"id":50,"name":"P"}],"triggers":[{"id":50,"name":"T"}]}`, []string{"triggers[0].id: 50 is already the id of projects[0]"}},
		{"server timestamps", `{"projects":[{"name":"P","dateCreated":"2020-01-01T00:00:00Z"}]}`, []string{"projects[0].dateCreated: the emulator sets dateCreated"}},
		{"entities of a dedicated section", `{"entities":{"lists":[{"name":"L"}]}}`, []string{`entities.lists: give lists under the top-level key "lists"`}},
		{"entities of an unknown domain", `{"entities":{"campaign":[{"name":"C"}]}}`, []string{`entities.campaign: "campaign" is not a domain of the service that follows the generic pattern`}},
		{"several problems at once", `{"projects":[{}],"lists":[{"name":"L","contacts":[{"originalId":"a","status":"x"}]}]}`,
			[]string{"projects[0].name: name is mandatory", "lists[0].contacts[0].status: status must be"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openFixtures(t, tt.fixtures)
			if err == nil {
				t.Fatal("Open accepted the fixtures")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestParseFixturesRefusesMalformedInput(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", ``, "the fixtures are empty"},
		{"not an object", `[]`, "not valid"},
		{"unknown section", `{"list":[]}`, `unknown field "list"`},
		{"unknown contact key", `{"lists":[{"name":"L","contacts":[{"original_id":"a"}]}]}`, `unknown field "original_id"`},
		{"contact properties not strings", `{"lists":[{"name":"L","contacts":[{"originalId":"a","properties":{"n":1}}]}]}`, "cannot unmarshal number"},
		{"trailing data", `{} {}`, "data after the JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFixtures(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := ReadFixturesFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "reading fixtures") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"nope":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFixturesFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("the error names the file: %v", err)
	}
}

// Fixtures built in Go (as tests do) load like parsed ones, and a list
// round-trips through its JSON form.
func TestFixturesFromGo(t *testing.T) {
	f := &Fixtures{Lists: []FixtureList{{
		Fields:   map[string]any{"id": 70, "name": "Go list"},
		Contacts: []Contact{{OriginalID: "x", Properties: map[string]string{"email": "x@example.com"}, Status: "UNSUBSCRIBED"}},
	}}}
	s, err := Open(Options{Fixtures: f})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := decodeObject(t, do(t, s, http.MethodGet, "/rest/1000/lists/70/contacts/x", nil))
	if c["status"] != "UNSUBSCRIBED" || c["mobileStatus"] != "SUBSCRIBED" {
		t.Errorf("contact = %v", c)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseFixtures(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("parsing %s: %v", b, err)
	}
	if back.Lists[0].Fields["name"] != "Go list" || back.Lists[0].Contacts[0].OriginalID != "x" {
		t.Errorf("round trip = %+v", back.Lists[0])
	}
}

func TestNewRefusesOptionsOnlyOpenApplies(t *testing.T) {
	for name, opts := range map[string]Options{
		"fixtures": {Fixtures: &Fixtures{}},
		"data dir": {DataDir: t.TempDir()},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "use Open") {
					t.Errorf("recover() = %v", r)
				}
			}()
			New(opts)
		})
	}
}
