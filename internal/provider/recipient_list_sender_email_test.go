package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A sender_email the service would refuse (a display name, something that
// is no address) fails the plan, naming the attribute and the bare address
// to write, before any request on lists; the service refuses the same
// values, so the plan and the apply agree.
func TestAccRecipientListResource_senderEmailCheckedAtPlan(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for name, tc := range map[string]struct {
		value string
		want  []string
	}{
		"display name": {
			value: "Team <team@example.com>",
			want:  []string{"Invalid e-mail address", `sender_email "Team <team@example.com>" is more than a bare e-mail address`, `write "team@example.com", and put the name "Team" in sender_name`},
		},
		"not an address": {
			value: "team.example.com",
			want:  []string{"Invalid e-mail address", `sender_email "team.example.com" is not an e-mail address`, "news@example.com"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := acctest.NewEnv(t, emulator.Options{})
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      env.Config(listConfig("L", "", "", tc.value)),
					PlanOnly:    true,
					ExpectError: acctest.ExpectErrorParts(tc.want...),
				}},
			})
			if n := env.Emulator.Requests().ByCollection["lists"]; n != 0 {
				t.Errorf("%d requests on lists, want none: the plan refuses before", n)
			}
			if status := env.Do(t, "POST", "lists", map[string]any{"name": "L", "senderEmail": tc.value}, nil); status != 400 {
				t.Errorf("the service answered %d to senderEmail %q, want 400: the plan's check and the service disagree", status, tc.value)
			}
		})
	}
}
