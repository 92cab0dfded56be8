package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// TestAccChaosListContacts applies a map input (single calls) and a file
// input above the batch threshold (imports) while the emulator answers a
// fraction of requests with faults, some after acting: every contact must
// be there once with the values and statuses configured, and a second
// apply must find nothing to do.
func TestAccChaosListContacts(t *testing.T) {
	const rows = 300
	rate := chaosRate(t)
	env := acctest.NewEnv(t, emulator.Options{Faults: chaosFaults(rate, chaosSeed(t)+19)})
	dir := t.TempDir()
	file := filepath.Join(dir, "contacts.csv")
	content := "originalId,email,firstname\n"
	for i := range rows {
		content += fmt.Sprintf("f-%03d,f%d@example.com,File %d\n", i, i, i)
	}
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	config := chaosProvider(env) + fmt.Sprintf(`
resource "rms_list" "m" {
  name = "Chaos members"
}
resource "rms_list" "f" {
  name = "Chaos file"
}
resource "rms_list_contacts" "m" {
  list_id = rms_list.m.id
  contacts = {
    for i in range(12) : "m-${i}" => {
      properties    = { email = "m${i}@example.com", "3" = "Member ${i}" }
      mobile_status = "UNSUBSCRIBED"
    }
  }
}
resource "rms_list_contacts" "f" {
  list_id         = rms_list.f.id
  source_file     = %q
  batch_threshold = 50
}
`, file)
	duplicates := -1
	check := func(s *terraform.State) error {
		// One ADD import of the file's list, uploaded once: an import
		// carried out twice would be a duplicate of work (and of events).
		var imps []struct {
			Type    string  `json:"type"`
			BatchID *string `json:"batchId"`
		}
		env.Inspect(t, "lists/"+s.RootModule().Resources["rms_list.f"].Primary.ID+"/imports?pageSize=1000", &imps)
		uploaded := 0
		for _, imp := range imps {
			if imp.Type == "ADD" && imp.BatchID != nil {
				uploaded++
			}
		}
		if duplicates = uploaded - 1; duplicates != 0 {
			return fmt.Errorf("%d ADD imports uploaded, want 1", uploaded)
		}
		m := listContactsOf(t, env, s.RootModule().Resources["rms_list.m"].Primary.ID)
		if len(m) != 12 {
			return fmt.Errorf("the map's list holds %d contacts, want 12", len(m))
		}
		for i := range 12 {
			c := m[fmt.Sprintf("m-%d", i)]
			if c.Properties["firstname"] != fmt.Sprintf("Member %d", i) || c.MobileStatus != "UNSUBSCRIBED" {
				return fmt.Errorf("m-%d is %+v", i, c)
			}
		}
		f := listContactsOf(t, env, s.RootModule().Resources["rms_list.f"].Primary.ID)
		if len(f) != rows {
			return fmt.Errorf("the file's list holds %d contacts, want %d", len(f), rows)
		}
		for i := range rows {
			c := f[fmt.Sprintf("f-%03d", i)]
			if c.Properties["firstname"] != fmt.Sprintf("File %d", i) || c.Status != "SUBSCRIBED" {
				return fmt.Errorf("f-%03d is %+v", i, c)
			}
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{Config: config, Check: check},
			{Config: config, Check: check}, // nothing left to do
		},
	})
	reportChaos(t, env, rate, duplicates, 0)
}
