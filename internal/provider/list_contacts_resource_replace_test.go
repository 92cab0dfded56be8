package provider_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A replacement of rms_list_contacts unsubscribes nobody, not even for a
// moment: the emulator sends contact.unsubscribed for every unsubscription
// as the service tells the account's systems, and the tests count those
// events (recorded when the write happens, whether delivered or not).

// watchUnsubscriptions subscribes a webhook of env's account to
// contact.unsubscribed. Its deliveries fail (nothing listens on the
// discard port); the emulator records each event all the same.
func watchUnsubscriptions(t *testing.T, env *acctest.Env) {
	t.Helper()
	env.MustDo(t, "POST", "webhooks", map[string]any{
		"url": "http://127.0.0.1:9/hooks", "events": []string{"contact.unsubscribed"}, "active": true,
	}, nil)
}

// unsubscriptions counts the contact.unsubscribed events env has sent.
func unsubscriptions(env *acctest.Env) int {
	n := 0
	for _, d := range env.Emulator.Deliveries() {
		if d.Event == "contact.unsubscribed" {
			n++
		}
	}
	return n
}

// expectStatuses fails unless each contact of list listID has the e-mail
// status of want.
func expectEmailStatuses(t *testing.T, env *acctest.Env, listID string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := listContactsOf(t, env, listID)
		for id, st := range want {
			if got[id].Status != st {
				return fmt.Errorf("contact %s of list %s is %q, want %q (list: %+v)", id, listID, got[id].Status, st, got)
			}
		}
		return nil
	}
}

const (
	destroyFirst = plancheck.ResourceActionDestroyBeforeCreate
	createFirst  = plancheck.ResourceActionCreateBeforeDestroy
)

func TestAccListContactsReplaceUnsubscribesNobody(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const cbd = "  lifecycle {\n    create_before_destroy = true\n  }\n"
	contacts := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com"}, email: "SUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com"}, email: "UNSUBSCRIBED"},
		"cy":  {props: map[string]string{"email": "cy@example.com"}}, // status left to the service
		"dee": {props: map[string]string{"email": "dee@example.com"}, email: "SUBSCRIBED"},
	}
	// Every contact as the configuration says, or as it was; dee's own
	// opt-out (made between the steps) stays.
	after := map[string]string{"ada": "SUBSCRIBED", "bob": "UNSUBSCRIBED", "cy": "SUBSCRIBED", "dee": "UNSUBSCRIBED"}
	fileContent := "originalId,email,email_status\n" +
		"ada,ada@example.com,SUBSCRIBED\nbob,bob@example.com,UNSUBSCRIBED\ncy,cy@example.com,\ndee,dee@example.com,SUBSCRIBED\n"

	type replaceCase struct {
		name   string
		config func(listID, file string) string
		action plancheck.ResourceActionType
	}
	var cases []replaceCase
	// Every input, below and above batch_threshold, in both orders.
	for _, input := range []string{"map", "file"} {
		for _, threshold := range []string{"", "  batch_threshold = 1\n"} {
			for _, lifecycle := range []string{"", cbd} {
				name, action := input, destroyFirst
				if threshold != "" {
					name += " above batch_threshold"
				}
				if lifecycle != "" {
					name, action = name+" create_before_destroy", createFirst
				}
				extra := threshold + lifecycle
				cases = append(cases, replaceCase{name, func(listID, file string) string {
					if input == "map" {
						return listContactsConfig(listID, contacts, extra)
					}
					return fmt.Sprintf("resource \"rms_list_contacts\" \"c\" {\n  list_id = %q\n  source_file = %q\n%s}\n", listID, file, extra)
				}, action})
			}
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			watchUnsubscriptions(t, env)
			listID := newTestList(t, env)
			file := filepath.Join(t.TempDir(), "contacts.csv")
			writeFile(t, file, fileContent)
			cfg := env.Config(tc.config(listID, file))
			var mark int
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{Config: cfg, Check: expectEmailStatuses(t, env, listID, map[string]string{"ada": "SUBSCRIBED", "bob": "UNSUBSCRIBED", "cy": "SUBSCRIBED", "dee": "SUBSCRIBED"})},
					{
						PreConfig: func() {
							env.MustDo(t, "PUT", "lists/"+listID+"/contacts/dee/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
							mark = unsubscriptions(env)
						},
						Taint:  []string{"rms_list_contacts.c"},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("rms_list_contacts.c", tc.action),
						}},
						Check: resource.ComposeTestCheckFunc(
							expectEmailStatuses(t, env, listID, after),
							func(*terraform.State) error {
								if n := unsubscriptions(env) - mark; n != 0 {
									return fmt.Errorf("the replacement unsubscribed %d contacts (contact.unsubscribed events), want none", n)
								}
								return nil
							},
						),
					},
				},
			})
		})
	}
}

// A replacement that moves the resource to another list forgets the old
// list's contacts, as an update that stopped naming them would: it
// unsubscribes nobody there.
func TestAccListContactsReplaceOtherListForgets(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	watchUnsubscriptions(t, env)
	oldList, newList := newTestList(t, env), newTestList(t, env)
	contacts := map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com"}, email: "SUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com"}},
	}
	var mark int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(listContactsConfig(oldList, contacts, ""))},
			{
				PreConfig: func() { mark = unsubscriptions(env) },
				Config:    env.Config(listContactsConfig(newList, contacts, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", destroyFirst),
				}},
				Check: resource.ComposeTestCheckFunc(
					expectEmailStatuses(t, env, oldList, map[string]string{"ada": "SUBSCRIBED", "bob": "SUBSCRIBED"}),
					expectEmailStatuses(t, env, newList, map[string]string{"ada": "SUBSCRIBED", "bob": "SUBSCRIBED"}),
					func(*terraform.State) error {
						if n := unsubscriptions(env) - mark; n != 0 {
							return fmt.Errorf("moving to another list unsubscribed %d contacts, want none", n)
						}
						return nil
					},
				),
			},
		},
	})
}

// The consent record of the replaced object passes to the new one: a
// contact the configuration had unsubscribed and now says SUBSCRIBED, in
// the same apply as the replacement, is re-subscribed (the configuration
// asks for it), not mistaken for an opt-out; one exclusive had unsubscribed
// and the input names again, with its status left to the service, gets its
// status back; a recipient's own opt-out stays. In both orders.
func TestAccListContactsReplaceKeepsProvenance(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, order := range []struct {
		name, lifecycle string
	}{{"destroy first", ""}, {"create_before_destroy", "  lifecycle {\n    create_before_destroy = true\n  }\n"}} {
		t.Run(order.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewEnv(t, emulator.Options{})
			listID := newTestList(t, env)
			env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "zed", "properties": map[string]any{"email": "zed@example.com"}}, nil)
			before := map[string]listContact{
				"eve": {props: map[string]string{"email": "eve@example.com"}, email: "UNSUBSCRIBED"},
				"own": {props: map[string]string{"email": "own@example.com"}, email: "SUBSCRIBED"},
			}
			now := map[string]listContact{
				"eve": {props: map[string]string{"email": "eve@example.com"}, email: "SUBSCRIBED"},
				"own": {props: map[string]string{"email": "own@example.com"}, email: "SUBSCRIBED"},
				"zed": {props: map[string]string{"email": "zed@example.com"}},
			}
			// A create that unsubscribes needs a limit set explicitly (it
			// cannot hold to its plan's count).
			extra := "  exclusive = true\n  max_unsubscribe = 1\n" + order.lifecycle
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{
						Config: env.Config(listContactsConfig(listID, before, extra)),
						Check:  expectEmailStatuses(t, env, listID, map[string]string{"eve": "UNSUBSCRIBED", "own": "SUBSCRIBED", "zed": "UNSUBSCRIBED"}),
					},
					{
						PreConfig: func() {
							env.MustDo(t, "PUT", "lists/"+listID+"/contacts/own/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
						},
						Taint:  []string{"rms_list_contacts.c"},
						Config: env.Config(listContactsConfig(listID, now, extra)),
						Check:  expectEmailStatuses(t, env, listID, map[string]string{"eve": "SUBSCRIBED", "own": "UNSUBSCRIBED", "zed": "SUBSCRIBED"}),
					},
				},
			})
		})
	}
}

// Moving contacts from rms_contact to rms_list_contacts: Terraform does not
// order one resource's destroy against another's create, so the path that
// unsubscribes nobody forgets the rms_contact objects (a removed block with
// destroy = false) and lets rms_list_contacts adopt the contacts it finds.
func TestAccListContactsAdoptFromContactResources(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const routeCreateContact = "POST /rest/{customerid}/lists/{id}/contacts"
	env := acctest.NewEnv(t, emulator.Options{})
	watchUnsubscriptions(t, env)
	listID := newTestList(t, env)
	singles := fmt.Sprintf(`
resource "rms_contact" "each" {
  for_each     = toset(["ada", "bob"])
  list_id      = %q
  original_id  = each.key
  properties   = { email = "${each.key}@example.com" }
  email_status = "SUBSCRIBED"
}
`, listID)
	moved := `
removed {
  from = rms_contact.each
  lifecycle {
    destroy = false
  }
}
` + listContactsConfig(listID, map[string]listContact{
		"ada": {props: map[string]string{"email": "ada@example.com"}, email: "SUBSCRIBED"},
		"bob": {props: map[string]string{"email": "bob@example.com"}, email: "SUBSCRIBED"},
	}, "")
	var mark int
	var creates int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: env.Config(singles)},
			{
				PreConfig: func() {
					mark = unsubscriptions(env)
					creates = env.Emulator.Requests().ByRoute[routeCreateContact]
				},
				Config: env.Config(moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_list_contacts.c", plancheck.ResourceActionCreate),
				}},
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						for name := range s.RootModule().Resources {
							if strings.HasPrefix(name, "rms_contact.") {
								return fmt.Errorf("%s is still in the state", name)
							}
						}
						return nil
					},
					expectEmailStatuses(t, env, listID, map[string]string{"ada": "SUBSCRIBED", "bob": "SUBSCRIBED"}),
					func(*terraform.State) error {
						if n := unsubscriptions(env) - mark; n != 0 {
							return fmt.Errorf("the move unsubscribed %d contacts, want none", n)
						}
						if n := env.Emulator.Requests().ByRoute[routeCreateContact] - creates; n != 0 {
							return fmt.Errorf("the move created %d contacts again, want none (adopted)", n)
						}
						return nil
					},
				),
			},
		},
	})
}
