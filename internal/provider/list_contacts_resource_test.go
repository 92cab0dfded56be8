package provider_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// listContact is one entry of a test's contacts map.
type listContact struct {
	props         map[string]string
	email, mobile string
}

// newTestList makes a list out of band, so that it outlives the resource
// (destroy's effect on the contacts can then be checked).
func newTestList(t *testing.T, env *acctest.Env) string {
	t.Helper()
	var l struct {
		ID any `json:"id"`
	}
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Members"}, &l)
	return fmt.Sprint(l.ID)
}

// listContactsConfig renders rms_list_contacts.c for list listID with a map
// input; extra is added inside the resource block.
func listContactsConfig(listID string, contacts map[string]listContact, extra string) string {
	var b strings.Builder
	b.WriteString("resource \"rms_list_contacts\" \"c\" {\n  list_id = \"" + listID + "\"\n" + extra + "\n  contacts = {\n")
	ids := make([]string, 0, len(contacts))
	for id := range contacts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := contacts[id]
		fmt.Fprintf(&b, "    %q = {\n", id)
		if c.props != nil {
			keys := make([]string, 0, len(c.props))
			for k := range c.props {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			b.WriteString("      properties = {\n")
			for _, k := range keys {
				fmt.Fprintf(&b, "        %q = %q\n", k, c.props[k])
			}
			b.WriteString("      }\n")
		}
		if c.email != "" {
			fmt.Fprintf(&b, "      email_status = %q\n", c.email)
		}
		if c.mobile != "" {
			fmt.Fprintf(&b, "      mobile_status = %q\n", c.mobile)
		}
		b.WriteString("    }\n")
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// listContactsOf reads every contact of a list from the emulator.
func listContactsOf(t *testing.T, env *acctest.Env, listID string) map[string]serverContact {
	t.Helper()
	out := map[string]serverContact{}
	for page := 0; ; page++ {
		var all []serverContact
		env.Inspect(t, fmt.Sprintf("lists/%s/contacts?pageSize=1000&page=%d", listID, page), &all)
		for _, c := range all {
			out[c.OriginalID] = c
		}
		if len(all) < 1000 {
			return out
		}
	}
}

func TestAccListContactsMap(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	base := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com", "3": "Ada"}, email: "SUBSCRIBED", mobile: "UNSUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com", "lastname": "Builder"}},
		"cy":  {props: map[string]string{"email": "cy@example.com"}, email: "SUBSCRIBED"},
	}
	updated := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com", "firstname": "Ada L."}, email: "SUBSCRIBED", mobile: "UNSUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com"}}, // lastname removed
		"cy":  {props: map[string]string{"email": "cy@example.com"}, email: "SUBSCRIBED"},
		"dee": {props: map[string]string{"email": "dee@example.com"}, email: "UNSUBSCRIBED"},
	}
	listID := newTestList(t, env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create; the framework then checks the plan is empty
				Config: env.Config(listContactsConfig(listID, base, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contact_count"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contacts").AtMapKey("ada").AtMapKey("properties").AtMapKey("3"), knownvalue.StringExact("Ada")),
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("unmanaged_subscribed"), knownvalue.Int64Exact(0)),
				},
				Check: func(s *terraform.State) error {
					got := listContactsOf(t, env, listID)
					if len(got) != 3 || got["ada"].Properties["firstname"] != "Ada" || got["ada"].MobileStatus != "UNSUBSCRIBED" || got["bob"].Properties["lastname"] != "Builder" {
						return fmt.Errorf("the list holds %+v", got)
					}
					return nil
				},
			},
			{ // drift: a value changed elsewhere is planned back, per key
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/bob", map[string]any{"properties": map[string]any{"lastname": "Changed"}}, nil)
				},
				Config: env.Config(listContactsConfig(listID, base, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contacts").AtMapKey("bob").AtMapKey("properties").AtMapKey("lastname"), knownvalue.StringExact("Builder")),
				}},
				Check: func(*terraform.State) error {
					if got := getContact(t, env, listID, "bob").Properties["lastname"]; got != "Builder" {
						return fmt.Errorf("bob's lastname is %q after the apply, want Builder", got)
					}
					return nil
				},
			},
			{ // update: a value renamed by key form, a value removed, a contact added unsubscribed
				Config: env.Config(listContactsConfig(listID, updated, "")),
				Check: func(*terraform.State) error {
					got := listContactsOf(t, env, listID)
					switch {
					case got["ada"].Properties["firstname"] != "Ada L.":
						return fmt.Errorf("ada: %+v", got["ada"])
					case got["bob"].Properties["lastname"] != "":
						return fmt.Errorf("bob's lastname was not removed: %+v", got["bob"])
					case got["dee"].Status != "UNSUBSCRIBED" || got["dee"].Properties["email"] != "dee@example.com":
						return fmt.Errorf("dee: %+v", got["dee"])
					}
					return nil
				},
			},
			{ // exclusive: a contact added elsewhere is counted, then unsubscribed; cy's own opt-out is honoured
				PreConfig: func() {
					env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "stranger", "properties": map[string]any{"email": "s@example.com"}}, nil)
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/cy/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
				},
				Config: env.Config(listContactsConfig(listID, updated, "  exclusive = true")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("unmanaged_subscribed"), knownvalue.Int64Exact(0)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("contacts").AtMapKey("cy").AtMapKey("email_status"), knownvalue.StringExact("SUBSCRIBED")),
				},
				Check: func(*terraform.State) error {
					got := listContactsOf(t, env, listID)
					if s := got["stranger"]; s.Status != "UNSUBSCRIBED" || s.MobileStatus != "UNSUBSCRIBED" {
						return fmt.Errorf("the unnamed contact is not unsubscribed: %+v", s)
					}
					if got["cy"].Status != "UNSUBSCRIBED" {
						return fmt.Errorf("cy's opt-out was undone: %+v", got["cy"])
					}
					return nil
				},
			},
			{ // allow_resubscribe undoes the opt-out, as asked
				Config: env.Config(listContactsConfig(listID, updated, "  exclusive = true\n  allow_resubscribe = true")),
				Check: func(*terraform.State) error {
					if got := getContact(t, env, listID, "cy").Status; got != "SUBSCRIBED" {
						return fmt.Errorf("cy is %s with allow_resubscribe, want SUBSCRIBED", got)
					}
					return nil
				},
			},
			{ // import by list id: the next plan writes nothing that is equal
				ResourceName:       "rms_list_contacts.c",
				ImportState:        true,
				ImportStateIdFunc:  func(*terraform.State) (string, error) { return listID, nil },
				ImportStateCheck:   func(s []*terraform.InstanceState) error { return expectAttr(s, "list_id", listID) },
				Config:             env.Config(listContactsConfig(listID, updated, "  exclusive = true\n  allow_resubscribe = true")),
				ImportStatePersist: false,
			},
		},
		// Destroy forgets (on_destroy defaults to "forget"): the contacts
		// stay as the last apply left them.
		CheckDestroy: func(*terraform.State) error {
			got := listContactsOf(t, env, listID)
			for id, want := range map[string][2]string{"ada": {"SUBSCRIBED", "UNSUBSCRIBED"}, "bob": {"SUBSCRIBED", "SUBSCRIBED"}, "cy": {"SUBSCRIBED", "SUBSCRIBED"}, "dee": {"UNSUBSCRIBED", "SUBSCRIBED"}} {
				if c, ok := got[id]; !ok || c.Status != want[0] || c.MobileStatus != want[1] {
					return fmt.Errorf("destroy changed %s: %+v, want e-mail %s and mobile %s", id, c, want[0], want[1])
				}
			}
			return nil
		},
	})
}

// expectAttr checks one attribute of the first imported instance.
func expectAttr(s []*terraform.InstanceState, name, want string) error {
	for _, is := range s {
		if _, ok := is.Attributes["contact_count"]; !ok {
			continue // another resource of the configuration
		}
		if got := is.Attributes[name]; got != want {
			return fmt.Errorf("%s = %q, want %q", name, got, want)
		}
		return nil
	}
	return fmt.Errorf("no rms_list_contacts among %d imported instances", len(s))
}

// Importing a list that already holds the configured contacts writes
// nothing: the first apply finds them equal.
func TestAccListContactsImportNoRewrite(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	contacts := map[string]listContact{
		"a": {props: map[string]string{"email": "a@example.com"}},
		"b": {props: map[string]string{"email": "b@example.com", "firstname": "B"}},
	}
	listID := newTestList(t, env)
	for id, c := range contacts {
		env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": id, "properties": c.props}, nil)
	}
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "other", "properties": map[string]any{"email": "o@example.com"}}, nil)
	writes := contactWrites(env)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				ResourceName:       "rms_list_contacts.c",
				ImportState:        true,
				ImportStateIdFunc:  func(*terraform.State) (string, error) { return listID, nil },
				ImportStatePersist: true,
				Config:             env.Config(listContactsConfig(listID, contacts, "")),
				ImportStateCheck:   func(s []*terraform.InstanceState) error { return expectAttr(s, "id", listID) },
			},
			{
				Config: env.Config(listContactsConfig(listID, contacts, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_list_contacts.c", tfjsonpath.New("unmanaged_subscribed"), knownvalue.Int64Exact(1)),
				},
				Check: func(*terraform.State) error {
					if n := contactWrites(env); n != writes {
						return fmt.Errorf("the first apply after import made %d contact writes, want none (all equal)", n-writes)
					}
					if got := getContact(t, env, listID, "other").Status; got != "SUBSCRIBED" {
						return fmt.Errorf("the unnamed contact is %s, want untouched (exclusive = false)", got)
					}
					return nil
				},
			},
		},
	})
}

// contactWrites counts the POST and PUT requests on contacts so far.
func contactWrites(env *acctest.Env) int64 {
	var n int64
	for key, c := range env.Emulator.Requests().ByRoute {
		if (strings.HasPrefix(key, "POST ") || strings.HasPrefix(key, "PUT ")) && strings.Contains(key, "/contacts") {
			n += c
		}
	}
	return n
}

func TestAccListContactsBadInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	dir := t.TempDir()
	latin1 := filepath.Join(dir, "latin1.csv")
	mustWrite(t, latin1, "originalId,lastname\nrenee,M\xfcller\n") // saved by Excel on Windows
	badUTF16 := filepath.Join(dir, "utf16.csv")
	mustWrite(t, badUTF16, "\xff\xfeo\x00r\x00i\x00g\x00i\x00n\x00a\x00l\x00I\x00d\x00\n\x00a\x00\x00\xdc\n\x00")
	semicolons := filepath.Join(dir, "semicolons.csv")
	mustWrite(t, semicolons, "originalId;lastname\na;A\n")
	sourceFile := func(p, extra string) string {
		return fmt.Sprintf("resource \"rms_list_contacts\" \"c\" {\n  list_id     = \"1\"\n  source_file = %q\n%s}", p, extra)
	}
	t.Cleanup(func() {
		if n := contactWrites(env); n != 0 {
			t.Errorf("refused inputs sent %d contact writes", n)
		}
	})
	cases := []struct {
		name, config string
		want         *regexp.Regexp
	}{
		{"both inputs", `resource "rms_list_contacts" "c" {
  list_id     = "1"
  source_file = "x.csv"
  contacts    = {}
}`, acctest.ExpectErrorParts("Give contacts or source_file, not both")},
		{"neither input", `resource "rms_list_contacts" "c" {
  list_id = "7"
}`, acctest.ExpectErrorParts("Give contacts or source_file", `source_file = "${path.module}/list-7.csv"`)},
		{"missing file", `resource "rms_list_contacts" "c" {
  list_id     = "1"
  source_file = "/nonexistent/contacts.csv"
}`, acctest.ExpectErrorParts("Unable to read the source file", "no file at")},
		{"bad status", `resource "rms_list_contacts" "c" {
  list_id  = "1"
  contacts = { a = { email_status = "MAYBE" } }
}`, acctest.ExpectErrorParts("Invalid Attribute Value Match", `Attribute contacts["a"].email_status value must be one of: ["SUBSCRIBED" "UNSUBSCRIBED"], got: "MAYBE"`)},
		{"bad mobile status among good ones", `resource "rms_list_contacts" "c" {
  list_id  = "1"
  contacts = {
    a = { email_status = "SUBSCRIBED" }
    b = { mobile_status = "OPTED_OUT" }
    c = { properties = { firstname = "C" } }
  }
}`, acctest.ExpectErrorParts("Invalid Attribute Value Match", `Attribute contacts["b"].mobile_status value must be one of: ["SUBSCRIBED" "UNSUBSCRIBED"], got: "OPTED_OUT"`)},
		{"attribute named twice", `resource "rms_list_contacts" "c" {
  list_id  = "1"
  contacts = { a = { properties = { firstname = "Ann", "3" = "Bob" } } }
}`, acctest.ExpectErrorParts("Contact attribute named twice", `Contact "a" names attribute "firstname" twice: by key "3" and by key "firstname".`, "Keep one of the two keys")},
		{"Latin-1 file read as UTF8", sourceFile(latin1, ""), acctest.ExpectErrorParts("Unable to read the source file", latin1, "is not valid UTF8: line 2", "nothing was sent to the service", `set encoding = "ANSI"`)},
		{"bad UTF16 file", sourceFile(badUTF16, "  encoding = \"UTF16\"\n"), acctest.ExpectErrorParts("Unable to read the source file", "is not valid UTF16: line 2", "Set encoding to the encoding the file was saved in")},
		{"wrong delimiter", sourceFile(semicolons, ""), acctest.ExpectErrorParts("Unable to read the source file", `no identity column "originalId" under delimiter ","`, `set delimiter = ";"`)},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: env.Config(c.config), ExpectError: c.want, PlanOnly: true})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.ProviderFactories(), Steps: steps})
}
