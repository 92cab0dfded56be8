package provider_test

import (
	"context"
	"fmt"
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

// The consent rule on rms_contact (contact_consent.go): an opt-out made
// outside Terraform is not undone by an apply unless allow_resubscribe is
// set; a re-subscription the configuration asks for still works. The
// plan's warning is tested on ModifyPlan itself (contact_consent_test.go):
// terraform-plugin-testing does not show a plan's warnings.

// routeSubscriptionStatus is the emulator's route of the subscription-status
// call, the one call that re-subscribes.
const routeSubscriptionStatus = "PUT /rest/{customerid}/lists/{id}/contacts/{originalId}/subscriptionstatus"

// statusCalls counts the subscription-status calls env has answered.
func statusCalls(env *acctest.Env) int64 {
	return env.Emulator.Requests().ByRoute[routeSubscriptionStatus]
}

// expectStatusCalls fails unless env answered want subscription-status
// calls since *from.
func expectStatusCalls(env *acctest.Env, from *int64, want int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := statusCalls(env) - *from; got != want {
			return fmt.Errorf("the apply made %d subscription-status calls, want %d", got, want)
		}
		return nil
	}
}

// markStatusCalls remembers the count in *at once the pre-apply plan is made.
func markStatusCalls(env *acctest.Env, at *int64) plancheck.PlanCheck {
	return planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
		*at = statusCalls(env)
	})
}

// consentContactHCL is rms_contact.test in list listID with one channel's
// status set (attribute "email_status" or "mobile_status"), and
// allow_resubscribe when allow.
func consentContactHCL(listID, attribute, status string, allow bool) string {
	extra := ""
	if allow {
		extra = "  allow_resubscribe = true\n"
	}
	return fmt.Sprintf(`
resource "rms_contact" "test" {
  list_id     = %q
  original_id = "consent-1"
  %s = %q
%s}
`, listID, attribute, status, extra)
}

// consentChannel is one of a contact's two channels, as the configuration,
// the state and the emulator's requests and answers name it.
type consentChannel struct {
	attribute, service, field string
	of                        func(serverContact) string
}

var consentChannels = []consentChannel{
	{"email_status", "service_email_status", "status", func(c serverContact) string { return c.Status }},
	{"mobile_status", "service_mobile_status", "mobileStatus", func(c serverContact) string { return c.MobileStatus }},
}

func TestAccContactResource_optOutHonoured(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	for _, ch := range consentChannels {
		t.Run(ch.attribute, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			var list map[string]any
			env.MustDo(t, "POST", "lists", map[string]any{"name": "Consent"}, &list)
			listID := fmt.Sprint(list["id"])
			mark := &requestMark{env: env}
			var at int64
			config := func(status string, allow bool) string {
				return env.Config(consentContactHCL(listID, ch.attribute, status, allow))
			}
			server := func(want string) resource.TestCheckFunc {
				return func(*terraform.State) error {
					if got := ch.of(getContact(t, env, listID, "consent-1")); got != want {
						return fmt.Errorf("the service holds %s %s, want %s", ch.field, got, want)
					}
					return nil
				}
			}
			state := func(desired, service string) []statecheck.StateCheck {
				return []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New(ch.attribute), knownvalue.StringExact(desired)),
					statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New(ch.service), knownvalue.StringExact(service)),
				}
			}
			action := func(a plancheck.ResourceActionType) resource.ConfigPlanChecks {
				return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("rms_contact.test", a), markBeforeApply(mark), markStatusCalls(env, &at)}}
			}
			optOut := func() {
				env.MustDo(t, "PUT", "lists/"+listID+"/contacts/consent-1/subscriptionstatus", map[string]any{ch.field: U}, nil)
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{Config: config(S, false), ConfigStateChecks: state(S, S), Check: server(S)},
					{ // the recipient opts out: no change planned, nothing sent
						PreConfig:         optOut,
						Config:            config(S, false),
						ConfigPlanChecks:  action(plancheck.ResourceActionNoop),
						ConfigStateChecks: state(S, U),
						// (the apply's requests are counted before the check reads the
						// contact; its credentials check is all it sends)
						Check: resource.ComposeTestCheckFunc(func(*terraform.State) error { return expectRequests(mark, "the apply", map[string]int64{"check": 1})() }, server(U)),
					},
					{ // and the next plan still plans nothing
						Config:           config(S, false),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						Check:            server(U),
					},
					{ // allow_resubscribe: an update that re-subscribes
						Config:            config(S, true),
						ConfigPlanChecks:  action(plancheck.ResourceActionUpdate),
						ConfigStateChecks: state(S, S),
						Check:             resource.ComposeTestCheckFunc(server(S), expectStatusCalls(env, &at, 1)),
					},
					{ // unsubscribing always works
						Config:            config(U, false),
						ConfigPlanChecks:  action(plancheck.ResourceActionUpdate),
						ConfigStateChecks: state(U, U),
						Check:             resource.ComposeTestCheckFunc(server(U), expectStatusCalls(env, &at, 1)),
					},
					{ // the configuration itself re-subscribes: UNSUBSCRIBED -> SUBSCRIBED
						Config:            config(S, false),
						ConfigPlanChecks:  action(plancheck.ResourceActionUpdate),
						ConfigStateChecks: state(S, S),
						Check:             resource.ComposeTestCheckFunc(server(S), expectStatusCalls(env, &at, 1)),
					},
					{ // a subscription made elsewhere against a desired
						// UNSUBSCRIBED is no opt-out: planned back
						PreConfig: func() {
							env.MustDo(t, "PUT", "lists/"+listID+"/contacts/consent-1/subscriptionstatus", map[string]any{ch.field: S}, nil)
						},
						Config:            config(U, false),
						ConfigPlanChecks:  action(plancheck.ResourceActionUpdate),
						ConfigStateChecks: state(U, U),
						Check:             server(U),
					},
				},
			})
		})
	}
}

// A contact imported while unsubscribed, then configured SUBSCRIBED: what
// Terraform applied to it before is unknown, so the UNSUBSCRIBED is the
// recipient's and the apply sends no subscription status.
func TestAccContactResource_optOutImported(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Imported"}, &list)
	listID := fmt.Sprint(list["id"])
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "consent-1", "status": U}, nil)
	var at int64
	config := env.Config(consentContactHCL(listID, "email_status", S, false))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       "rms_contact.test",
				ImportState:        true,
				ImportStateId:      listID + "/consent-1",
				ImportStatePersist: true,
			},
			{ // the plan shows the desired status (the configuration's), the
				// apply records it and sends nothing for it
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_contact.test", plancheck.ResourceActionUpdate), markStatusCalls(env, &at),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("email_status"), knownvalue.StringExact(S)),
					statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("service_email_status"), knownvalue.StringExact(U)),
				},
				Check: func(s *terraform.State) error {
					if err := expectStatusCalls(env, &at, 0)(s); err != nil {
						return err
					}
					if got := getContact(t, env, listID, "consent-1"); got.Status != U {
						return fmt.Errorf("the imported contact was re-subscribed: %+v", got)
					}
					return nil
				},
			},
			{Config: config, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// Under the no-statuses wire profile the service shows no statuses: the
// service_* attributes are null, the configured statuses are kept and sent
// when the configuration changes them, and no opt-out can be seen.
func TestAccContactResource_consentNoStatuses(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	env := acctest.NewEnv(t, emulator.Options{Wire: emulator.MustParseWire(emulator.WireNoStatuses)})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Blind"}, &list)
	listID := fmt.Sprint(list["id"])
	config := func(status string) string {
		return env.Config(consentContactHCL(listID, "email_status", status, false))
	}
	nullService := []statecheck.StateCheck{
		statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("service_email_status"), knownvalue.Null()),
		statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("service_mobile_status"), knownvalue.Null()),
	}
	var at int64
	step := func(status string, calls int64) resource.TestStep {
		return resource.TestStep{
			Config:            config(status),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{markStatusCalls(env, &at)}},
			ConfigStateChecks: append(nullService, statecheck.ExpectKnownValue("rms_contact.test", tfjsonpath.New("email_status"), knownvalue.StringExact(status))),
			Check:             expectStatusCalls(env, &at, calls),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			// Created with the status in the create body, then set once
			// more: the answer does not show the service took it.
			step(S, 1),
			step(U, 1), // unsubscribing is sent
			step(S, 1), // so is the configuration's own re-subscription
			{ // an opt-out out of band cannot be seen: nothing planned
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/consent-1/subscriptionstatus", map[string]any{"status": U}, nil)
				},
				Config:           config(S),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
