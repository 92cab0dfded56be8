package provider_test

import (
	"fmt"
	"sort"
	"strconv"
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

// contactConfig renders rms_list.test and rms_contact.test with the given
// properties (in key order) and statuses ("" leaves the attribute out).
func contactConfig(props map[string]string, emailStatus, mobileStatus string) string {
	cfg := `
resource "rms_list" "test" {
  name                = "Customers"
  deletion_protection = false
}

resource "rms_contact" "test" {
  list_id     = rms_list.test.id
  original_id = "customer-1"
`
	if props != nil {
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		cfg += "  properties = {\n"
		for _, k := range keys {
			cfg += fmt.Sprintf("    %q = %q\n", k, props[k])
		}
		cfg += "  }\n"
	}
	if emailStatus != "" {
		cfg += fmt.Sprintf("  email_status = %q\n", emailStatus)
	}
	if mobileStatus != "" {
		cfg += fmt.Sprintf("  mobile_status = %q\n", mobileStatus)
	}
	return cfg + "}\n"
}

// withContactAttribute adds an attribute line to the last resource block of
// cfg (a contactConfig).
func withContactAttribute(cfg, line string) string {
	return strings.TrimSuffix(cfg, "}\n") + "  " + line + "\n}\n"
}

// serverContact is a contact as the emulator answers it.
type serverContact struct {
	OriginalID   string            `json:"originalId"`
	Properties   map[string]string `json:"properties"`
	Status       string            `json:"status"`
	MobileStatus string            `json:"mobileStatus"`
}

func getContact(t *testing.T, env *acctest.Env, listID, originalID string) serverContact {
	t.Helper()
	var c serverContact
	env.MustDo(t, "GET", "lists/"+listID+"/contacts/"+originalID, nil, &c)
	return c
}

func expectStatuses(email, mobile string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("email_status"), knownvalue.StringExact(email)),
		statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("mobile_status"), knownvalue.StringExact(mobile)),
	}
}

func expectProperties(want map[string]string) statecheck.StateCheck {
	checks := map[string]knownvalue.Check{}
	for k, v := range want {
		checks[k] = knownvalue.StringExact(v)
	}
	return statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("properties"), knownvalue.MapExact(checks))
}

func TestAccContactResource_lifecycle(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var listID string
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	server := func() serverContact { return getContact(t, env, listID, "customer-1") }
	wantServer := func(props map[string]string, email, mobile string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			got := server()
			if fmt.Sprint(got.Properties) != fmt.Sprint(props) || got.Status != email || got.MobileStatus != mobile {
				t.Errorf("server holds %+v, want properties %v, %s / %s", got, props, email, mobile)
			}
			return nil
		}
	}
	update := resource.ConfigPlanChecks{
		PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_contact.test", plancheck.ResourceActionUpdate)},
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // create: an id key stays in state though the server answers by name
				Config: env.Config(contactConfig(map[string]string{"email": "ada@example.com", "3": "Ada"}, "", "")),
				ConfigStateChecks: append(expectStatuses(S, S),
					expectProperties(map[string]string{"email": "ada@example.com", "3": "Ada"}),
					statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("date_created"), knownvalue.NotNull()),
				),
				Check: func(s *terraform.State) error {
					listID = resourceID(s, "rms_list.test")
					if got, want := resourceID(s, "rms_contact.test"), listID+"/customer-1"; got != want {
						t.Errorf("id = %q, want %q", got, want)
					}
					return wantServer(map[string]string{"email": "ada@example.com", "firstname": "Ada"}, S, S)(s)
				},
			},
			{ // update by name: the same attribute written the other way
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.com", "firstname": "Bea"}, "", "")),
				ConfigPlanChecks:  update,
				ConfigStateChecks: []statecheck.StateCheck{expectProperties(map[string]string{"email": "ada@example.com", "firstname": "Bea"})},
				Check:             wantServer(map[string]string{"email": "ada@example.com", "firstname": "Bea"}, S, S),
			},
			{ // update by id, and remove a key: its value leaves the contact
				Config:            env.Config(contactConfig(map[string]string{"1": "ada@example.org", "4": "Lovelace"}, "", "")),
				ConfigPlanChecks:  update,
				ConfigStateChecks: []statecheck.StateCheck{expectProperties(map[string]string{"1": "ada@example.org", "4": "Lovelace"})},
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S),
			},
			{ // unsubscribe e-mail only
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, U, "")),
				ConfigStateChecks: expectStatuses(U, S),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, U, S),
			},
			{ // unsubscribe mobile only
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, U, U)),
				ConfigPlanChecks:  update,
				ConfigStateChecks: expectStatuses(U, U),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, U, U),
			},
			{ // re-subscribe e-mail, mobile stays out
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, U)),
				ConfigPlanChecks:  update,
				ConfigStateChecks: expectStatuses(S, U),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, U),
			},
			{ // re-subscribe mobile
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S)),
				ConfigPlanChecks:  update,
				ConfigStateChecks: expectStatuses(S, S),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S),
			},
			{ // import by list_id/original_id
				ResourceName:      "rms_contact.test",
				ImportState:       true,
				ImportStateVerify: true,
			},
			{ // drift: an opt-out made out of band is honoured: no change
				// planned, the service's status shown apart (the consent
				// tests, contact_consent_acc_test.go, cover it whole)
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/customer-1/subscriptionstatus", map[string]any{"status": U}, nil)
				},
				Config: env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_contact.test", plancheck.ResourceActionNoop)},
				},
				ConfigStateChecks: append(expectStatuses(S, S),
					statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("service_email_status"), knownvalue.StringExact(U))),
				Check: wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, U, S),
			},
			{ // ...and undone when the configuration allows it
				Config:            env.Config(withContactAttribute(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S), "allow_resubscribe = true")),
				ConfigPlanChecks:  update,
				ConfigStateChecks: expectStatuses(S, S),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S),
			},
			{ // drift: a managed value changed out of band is planned back;
				// a value set on an unmanaged attribute is left alone
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/customer-1", map[string]any{"properties": map[string]any{"lastname": "Byron", "firstname": "Ada"}}, nil)
				},
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S)),
				ConfigPlanChecks:  update,
				ConfigStateChecks: []statecheck.StateCheck{expectProperties(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"})},
				Check:             wantServer(map[string]string{"email": "ada@example.org", "firstname": "Ada", "lastname": "Lovelace"}, S, S),
			},
			{ // a status the configuration stops setting while its opt-out
				// is honoured catches up with the service: an update that
				// sends nothing
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/customer-1/subscriptionstatus", map[string]any{"mobileStatus": U}, nil)
				},
				Config:            env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, "")),
				ConfigPlanChecks:  update,
				ConfigStateChecks: expectStatuses(S, U),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "firstname": "Ada", "lastname": "Lovelace"}, S, U),
			},
			{ // an unmanaged status drifting is only read
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/customer-1/subscriptionstatus", map[string]any{"mobileStatus": S}, nil)
				},
				Config: env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expectStatuses(S, S),
			},
			{ // drift: the contact left the list out of band (as a replace
				// import with an empty file does): created again
				PreConfig: func() {
					if err := env.Emulator.ReplaceContacts(mustParseID(t, listID), nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: env.Config(contactConfig(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_contact.test", plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: expectStatuses(S, S),
				Check:             wantServer(map[string]string{"email": "ada@example.org", "lastname": "Lovelace"}, S, S),
			},
			{ // drift: the list deleted out of band: list and contact created again
				PreConfig: func() { env.MustDo(t, "DELETE", "lists/"+listID, nil, nil) },
				Config:    env.Config(contactConfig(map[string]string{"email": "ada@example.org"}, U, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("rms_list.test", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("rms_contact.test", plancheck.ResourceActionCreate),
					},
				},
				ConfigStateChecks: expectStatuses(U, S),
				Check: func(s *terraform.State) error {
					listID = resourceID(s, "rms_list.test")
					return wantServer(map[string]string{"email": "ada@example.org"}, U, S)(s)
				},
			},
			{ // a tainted contact is replaced: destroy lets it go, create takes it back
				Taint:  []string{"rms_contact.test"},
				Config: env.Config(contactConfig(map[string]string{"email": "ada@example.org"}, "", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_contact.test", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				// The states it had before the replacement, not those destroy left.
				ConfigStateChecks: expectStatuses(U, S),
				Check:             wantServer(map[string]string{"email": "ada@example.org"}, U, S),
			},
		},
	})
}

func mustParseID(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("not an id: %q", s)
	}
	return n
}

// Destroy cannot delete a contact. By default (on_destroy = "forget") it
// writes nothing: no subscription-status call, no contact.unsubscribed
// event. With on_destroy = "unsubscribe" it unsubscribes the channels the
// configuration sets (here e-mail only) and leaves the other alone, but a
// replacement (tainted) unsubscribes nobody even then. Both stay in the
// list.
func TestAccContactResource_destroy(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Kept"}, &list)
	listID := fmt.Sprint(list["id"])
	watchUnsubscriptions(t, env)
	statusCalls := func() int64 { return env.Emulator.Requests().ByRoute[routeSubscriptionStatus] }
	var callsBefore int64
	config := env.Config(fmt.Sprintf(`
resource "rms_contact" "test" {
  list_id     = %q
  original_id = "c 1/x"
  properties  = { email = "c1@example.com" }
  email_status = "SUBSCRIBED"
}

resource "rms_contact" "unsubscribe" {
  list_id      = %q
  original_id  = "c2"
  email_status = "SUBSCRIBED"
  on_destroy   = "unsubscribe"
}
`, listID, listID))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: append(expectStatuses("SUBSCRIBED", "SUBSCRIBED"),
				statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("id"), knownvalue.StringExact(listID+"/c 1/x")),
				statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("on_destroy"), knownvalue.StringExact("forget"))),
		}, { // a tainted contact with on_destroy = "unsubscribe" is replaced: nobody is unsubscribed
			Taint:  []string{"rms_contact.unsubscribe"},
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_contact.unsubscribe", plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: func(*terraform.State) error {
				if n := unsubscriptions(env); n != 0 {
					return fmt.Errorf("the replacement sent %d contact.unsubscribed events, want none", n)
				}
				if got := getContact(t, env, listID, "c2"); got.Status != "SUBSCRIBED" || got.MobileStatus != "SUBSCRIBED" {
					return fmt.Errorf("after the replacement c2 is %+v, want it as it was", got)
				}
				callsBefore = statusCalls()
				return nil
			},
		}, {
			ResourceName:      "rms_contact.test",
			ImportState:       true,
			ImportStateId:     listID + "/c 1/x",
			ImportStateVerify: true,
		}},
		CheckDestroy: func(*terraform.State) error {
			got := getContact(t, env, listID, "c%201%2Fx")
			if got.Status != "SUBSCRIBED" || got.MobileStatus != "SUBSCRIBED" || got.Properties["email"] != "c1@example.com" {
				t.Errorf("after a default destroy the contact is %+v, want it kept as it was", got)
			}
			if got := getContact(t, env, listID, "c2"); got.Status != "UNSUBSCRIBED" || got.MobileStatus != "SUBSCRIBED" {
				t.Errorf("after destroy with on_destroy = unsubscribe the contact is %+v, want it unsubscribed from e-mail only", got)
			}
			if n := statusCalls() - callsBefore; n != 1 {
				t.Errorf("destroy made %d subscription-status calls, want 1 (on_destroy = unsubscribe only)", n)
			}
			if n := unsubscriptions(env); n != 1 {
				t.Errorf("destroy sent %d contact.unsubscribed events, want 1", n)
			}
			return nil
		},
	})
}

func TestAccContactResource_badInput(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Existing"}, &list)
	listID := fmt.Sprint(list["id"])
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "taken"}, nil)
	contact := func(listID, originalID, extra string) string {
		return env.Config(fmt.Sprintf(`
resource "rms_contact" "test" {
  list_id     = %q
  original_id = %q
%s
}
`, listID, originalID, extra))
	}
	cases := map[string]struct {
		config string
		want   []string
	}{
		"unknown attribute key": {
			config: contact(listID, "n1", `  properties = { colour = "red" }`),
			want:   []string{"Unknown contact attribute", `properties = { colour = "red" }`, `properties["colour"]: key "colour" names no contact attribute of the account`},
		},
		"unknown attribute id": {
			config: contact(listID, "n2", `  properties = { "999" = "x" }`),
			want:   []string{"Unknown contact attribute", `properties = { "999" = "x" }`, `key "999" names an attribute id the account does not have`},
		},
		"one attribute twice": {
			config: contact(listID, "n3", `  properties = { "3" = "A", firstname = "B" }`),
			want:   []string{"Contact attribute named twice", `Contact "n3" names attribute "firstname" twice: by key "3" and by key "firstname"`},
		},
		"invalid email status": {
			config: contact(listID, "n4", `  email_status = "subscribed"`),
			want:   []string{"Invalid Attribute Value Match", "email_status", `value must be one of: ["SUBSCRIBED" "UNSUBSCRIBED"]`},
		},
		"invalid mobile status": {
			config: contact(listID, "n5", `  mobile_status = "OPTED_OUT"`),
			want:   []string{"mobile_status", `value must be one of: ["SUBSCRIBED" "UNSUBSCRIBED"]`},
		},
		"duplicate original id": {
			config: contact(listID, "taken", ""),
			want:   []string{"Contact already exists", "original_id", `List ` + listID + ` already has a contact with original_id "taken"`, "terraform import rms_contact.example " + listID + "/taken"},
		},
		"list that does not exist": {
			config: contact("99999", "n6", ""),
			want:   []string{"Unable to create contact", "list_id", "List 99999 does not exist"},
		},
		"list id not a number": {
			config: contact("news", "n7", ""),
			want:   []string{"list_id", "must be the numeric id of a list"},
		},
		"empty original id": {
			config: contact(listID, "", ""),
			want:   []string{"original_id", "string length must be at least 1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps:                    []resource.TestStep{{Config: tc.config, ExpectError: acctest.ExpectErrorParts(tc.want...)}},
			})
		})
	}
	t.Run("import id without original id", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			Steps: []resource.TestStep{{
				Config:        contact(listID, "x", ""),
				ResourceName:  "rms_contact.test",
				ImportState:   true,
				ImportStateId: listID,
				ExpectError:   acctest.ExpectErrorParts("Invalid import id", "joined by a slash"),
			}, {
				Config:        contact(listID, "x", ""),
				ResourceName:  "rms_contact.test",
				ImportState:   true,
				ImportStateId: listID + "/nobody",
				ExpectError:   acctest.ExpectErrorParts("Cannot import non-existent remote object", `no contact with original_id "nobody"`),
			}},
		})
	})
	t.Cleanup(func() {
		var contacts []serverContact
		env.MustDo(t, "GET", "lists/"+listID+"/contacts", nil, &contacts)
		var ids []string
		for _, c := range contacts {
			ids = append(ids, c.OriginalID)
		}
		if strings.Join(ids, ",") != "taken" {
			t.Errorf("failed applies left contacts on the server: %v", ids)
		}
	})
}
