package provider_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// Contacts Terraform unsubscribed itself (exclusive) are not opt-outs: named
// again, they get the status the input says, or where it says nothing the
// one they had before. A contact that was already unsubscribed when
// Terraform dropped it (the recipient's own opt-out) stays so.

func TestAccListContactsReleasedComeBackMap(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	env := acctest.NewEnv(t, emulator.Options{})
	listID := newTestList(t, env)
	// zed is in the list, subscribed, unnamed; opt opted out of e-mail herself.
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "zed", "properties": map[string]any{"email": "zed@example.com"}}, nil)
	env.MustDo(t, "POST", "lists/"+listID+"/contacts", map[string]any{"originalId": "opt", "properties": map[string]any{"email": "opt@example.com"}}, nil)
	env.MustDo(t, "PUT", "lists/"+listID+"/contacts/opt/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"}, nil)
	sub := func(email string) listContact {
		return listContact{props: map[string]string{"email": email}, email: "SUBSCRIBED"}
	}
	first := map[string]listContact{"ada": sub("ada@example.com"), "bob": sub("bob@example.com")}
	dropped := map[string]listContact{"ada": sub("ada@example.com")}
	back := map[string]listContact{
		"ada": sub("ada@example.com"), "bob": sub("bob@example.com"), "opt": sub("opt@example.com"),
		"zed": {props: map[string]string{"email": "zed@example.com"}}, // statuses left to the service
	}
	// A create that unsubscribes needs a limit set explicitly.
	const exclusive = "  exclusive = true\n  max_unsubscribe = 2\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{ // exclusive unsubscribes zed (Terraform's doing) and opt's mobile
				Config: env.Config(listContactsConfig(listID, first, exclusive)),
				Check:  expectEmailStatuses(t, env, listID, map[string]string{"ada": "SUBSCRIBED", "bob": "SUBSCRIBED", "zed": "UNSUBSCRIBED", "opt": "UNSUBSCRIBED"}),
			},
			{ // a key removed: exclusive unsubscribes bob
				Config: env.Config(listContactsConfig(listID, dropped, exclusive)),
				Check:  expectEmailStatuses(t, env, listID, map[string]string{"bob": "UNSUBSCRIBED"}),
			},
			{ // named again: bob and zed come back; opt's own opt-out stays
				Config: env.Config(listContactsConfig(listID, back, exclusive)),
				Check: resource.ComposeTestCheckFunc(
					expectEmailStatuses(t, env, listID, map[string]string{"ada": "SUBSCRIBED", "bob": "SUBSCRIBED", "zed": "SUBSCRIBED", "opt": "UNSUBSCRIBED"}),
					func(*terraform.State) error {
						got := listContactsOf(t, env, listID)
						if got["zed"].MobileStatus != "SUBSCRIBED" || got["opt"].MobileStatus != "SUBSCRIBED" {
							return fmt.Errorf("mobile statuses Terraform released were not restored: zed %q, opt %q", got["zed"].MobileStatus, got["opt"].MobileStatus)
						}
						return nil
					},
				),
			},
		},
	})
}

// The nightly export case: a file cut short one night makes exclusive
// unsubscribe the missing rows; the full file the next night brings them
// back, below and above batch_threshold.
func TestAccListContactsReleasedComeBackFile(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	for _, threshold := range []int{100, 2} {
		t.Run(fmt.Sprintf("batch_threshold=%d", threshold), func(t *testing.T) {
			t.Parallel()
			const n = 8
			env := acctest.NewEnv(t, emulator.Options{})
			listID := newTestList(t, env)
			file := filepath.Join(t.TempDir(), "contacts.csv")
			full := fileRows(n, nil)
			cfg := env.Config(fmt.Sprintf(`
resource "rms_list_contacts" "f" {
  list_id         = %q
  source_file     = %q
  delimiter       = ";"
  exclusive       = true
  batch_threshold = %d
}
`, listID, file, threshold))
			allSubscribed := map[string]string{}
			cut := map[string]string{}
			for i := range n {
				id := fmt.Sprintf("r-%04d", i)
				allSubscribed[id] = "SUBSCRIBED"
				cut[id] = "SUBSCRIBED"
				if i >= n/2 {
					cut[id] = "UNSUBSCRIBED"
				}
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{
					{PreConfig: func() { writeFile(t, file, full) }, Config: cfg, Check: expectEmailStatuses(t, env, listID, allSubscribed)},
					{PreConfig: func() { writeFile(t, file, fileRows(n/2, nil)) }, Config: cfg, Check: expectEmailStatuses(t, env, listID, cut)},
					{PreConfig: func() { writeFile(t, file, full) }, Config: cfg, Check: expectEmailStatuses(t, env, listID, allSubscribed)},
				},
			})
		})
	}
}
