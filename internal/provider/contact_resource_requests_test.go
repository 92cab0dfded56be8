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

// The request counts of BENCHMARKS.md, held by tests: what one step's apply
// or one plan's refresh sends, counted by the emulator.

// requestMark remembers the emulator's request counts at one moment.
type requestMark struct {
	env *acctest.Env
	at  emulator.RequestStats
}

func (m *requestMark) set() { m.at = m.env.Emulator.Requests() }

// since returns the requests by method since set, with the provider's
// credentials checks (one GET of projects each time Terraform configures
// it) apart under "check": the configurations measured here manage no
// project, so every request on projects is a check.
func (m *requestMark) since() map[string]int64 {
	now := m.env.Emulator.Requests()
	out := map[string]int64{}
	for method, n := range now.ByMethod {
		if d := n - m.at.ByMethod[method]; d != 0 {
			out[method] = d
		}
	}
	if checks := now.ByCollection["projects"] - m.at.ByCollection["projects"]; checks != 0 {
		out["check"] = checks
		if out["GET"] -= checks; out["GET"] == 0 {
			delete(out, "GET")
		}
	}
	return out
}

// planCheckFunc is a plan check written as a function.
type planCheckFunc func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse)

func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f(ctx, req, resp)
}

// markBeforeApply sets the mark once the pre-apply plan is made: a step's
// Check then sees only the requests of its apply (which does not refresh).
func markBeforeApply(m *requestMark) plancheck.PlanCheck {
	return planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) { m.set() })
}

// expectRequests fails unless the requests since the mark are exactly want.
func expectRequests(m *requestMark, what string, want map[string]int64) func() error {
	return func() error {
		got := m.since()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("%s sent %v, want %v", what, got, want)
		}
		return nil
	}
}

func contactsHCL(listID string, n int, firstname, email, mobile string) string {
	return fmt.Sprintf(`
resource "rms_contact" "c" {
  count         = %d
  list_id       = %q
  original_id   = "c-${count.index}"
  properties    = { email = "c${count.index}@example.com", firstname = %q }
  email_status  = %q
  mobile_status = %q
}
`, n, listID, firstname, email, mobile)
}

// Creates and updates write once per contact and change, and read nothing
// after a write: every write answers with the contact. Creates look for
// the contact first, sharing one listing of the list.
func TestAccContactResource_writesAtTheFloor(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Floor"}, &list)
	listID := fmt.Sprint(list["id"])
	const n = 3
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	mark := &requestMark{env: env}
	step := func(firstname, email, mobile string, want map[string]int64) resource.TestStep {
		return resource.TestStep{
			Config:           env.Config(contactsHCL(listID, n, firstname, email, mobile)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{markBeforeApply(mark)}},
			Check: func(*terraform.State) error {
				if err := expectRequests(mark, "the apply", want)(); err != nil {
					return err
				}
				for i := 0; i < n; i++ {
					got := getContact(t, env, listID, fmt.Sprint("c-", i))
					if got.Properties["firstname"] != firstname || got.Status != email || got.MobileStatus != mobile {
						return fmt.Errorf("server holds %+v, want firstname %s, %s / %s", got, firstname, email, mobile)
					}
				}
				return nil
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("rms_contact.c[2]", tfjsonpath.New("email_status"), knownvalue.StringExact(email)),
				statecheck.ExpectKnownValue("rms_contact.c[2]", tfjsonpath.New("mobile_status"), knownvalue.StringExact(mobile)),
			},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			// Statuses a new contact does not start with go in the create body.
			// Before creating, each contact is looked for (a service may
			// answer the create of an existing one as an upsert): the first
			// with a GET, the rest in one listing of the list, shared.
			// Each apply also checks the credentials once, as Terraform
			// configures the provider for it. The plan of a create checks
			// its property keys against the account's attributes: one
			// listing of them per command.
			step("Ada", U, U, map[string]int64{"POST": n, "GET": 3, "check": 1}),
			// A status-only update is one subscription-status call, no read.
			step("Ada", S, U, map[string]int64{"PUT": n, "check": 1}),
			// A properties-only update is one PUT, no read.
			step("Bea", S, U, map[string]int64{"PUT": n, "check": 1}),
			// Both: the properties PUT and the status call.
			step("Cy", U, S, map[string]int64{"PUT": 2 * n, "check": 1}),
		},
	})
}

// A refresh of many contacts of one list reads the list's contacts once,
// not each contact; what changed out of band between runs is still seen.
func TestAccContactResource_sharedListing(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	var list map[string]any
	env.MustDo(t, "POST", "lists", map[string]any{"name": "Shared"}, &list)
	listID := fmt.Sprint(list["id"])
	const n = 30
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	config := env.Config(contactsHCL(listID, n, "Ada", S, S))
	mark := &requestMark{env: env}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: config},
			{ // a no-change plan: the refresh of 30 contacts is one GET of a
				// contact and one page of the list, instead of 30 GETs, and
				// the plan's credentials check
				PreConfig: mark.set,
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					planCheckFunc(func(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
						if err := expectRequests(mark, "the refresh of 30 contacts", map[string]int64{"GET": 2, "check": 1})(); err != nil {
							resp.Error = err
						}
					}),
				}},
			},
			{ // drift between runs: a property changed, and a contact gone
				// from the list, each planned back; a recipient's opt-out
				// is honoured (no change planned for c-12)
				PreConfig: func() {
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/c-7", map[string]any{"properties": map[string]any{"firstname": "Eve"}}, nil)
					env.MustDo(t, "PUT", "lists/"+listID+"/contacts/c-12/subscriptionstatus", map[string]any{"status": U}, nil)
					var keep []emulator.Contact
					for i := 0; i < n; i++ {
						if i != 20 {
							keep = append(keep, emulator.Contact{OriginalID: fmt.Sprint("c-", i), Properties: map[string]string{
								"email": fmt.Sprintf("c%d@example.com", i), "firstname": map[bool]string{true: "Eve", false: "Ada"}[i == 7],
							}})
						}
					}
					if err := env.Emulator.ReplaceContacts(mustParseID(t, listID), keep); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("rms_contact.c[7]", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("rms_contact.c[12]", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("rms_contact.c[20]", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction("rms_contact.c[8]", plancheck.ResourceActionNoop),
				}},
				Check: func(*terraform.State) error {
					for _, id := range []string{"c-7", "c-20"} {
						if got := getContact(t, env, listID, id); got.Properties["firstname"] != "Ada" || got.Status != S {
							return fmt.Errorf("%s is %+v after the apply", id, got)
						}
					}
					if got := getContact(t, env, listID, "c-12"); got.Status != U {
						return fmt.Errorf("c-12 opted out, and is %+v after the apply", got)
					}
					return nil
				},
			},
		},
	})
}
