package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
)

// Provider functions need no account, so these tests start no emulator:
// Terraform calls the functions without configuring the provider. OpenTofu
// configures a provider before it calls its functions, so under OpenTofu
// the configuration carries a provider block whose server is never
// reached: its credentials check finds nothing listening, which only warns
// (without retries, so at once).
const functionsOnlyProviderBlock = `
provider "rms" {
  base_url    = "http://127.0.0.1:9"
  customer_id = 1
  username    = "functions-only"
  password    = "never-sent"
  max_retries = 0
}
`

// functionOK is one call whose result is known.
type functionOK struct {
	call string
	want string
}

// functionBad is one call Terraform must refuse, with parts of the message.
type functionBad struct {
	call  string
	parts []string
}

// testFunction applies every good call as an output in one step and checks
// each output, then expects each bad call to fail. A valid step comes last so
// the post-test destroy runs on a working configuration.
func testFunction(t *testing.T, good []functionOK, bad []functionBad) {
	t.Helper()
	var cfg strings.Builder
	header := ""
	if acctest.MustDetectCLI(t).Name == "OpenTofu" {
		header = functionsOnlyProviderBlock
	}
	cfg.WriteString(header)
	checks := make([]statecheck.StateCheck, 0, len(good))
	for i, g := range good {
		name := fmt.Sprintf("r%d", i)
		fmt.Fprintf(&cfg, "output %q {\n  value = %s\n}\n", name, g.call)
		checks = append(checks, statecheck.ExpectKnownOutputValue(name, knownvalue.StringExact(g.want)))
	}
	okStep := resource.TestStep{Config: cfg.String(), ConfigStateChecks: checks}
	steps := []resource.TestStep{okStep}
	for _, b := range bad {
		steps = append(steps, resource.TestStep{
			Config:      header + fmt.Sprintf("output \"bad\" {\n  value = %s\n}\n", b.call),
			ExpectError: acctest.ExpectErrorParts(b.parts...),
		})
	}
	steps = append(steps, okStep)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps:                    steps,
	})
}

func TestAccFunction_delimiterCode(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	testFunction(t,
		[]functionOK{
			{`provider::rms::delimiter_code(",")`, "44"},
			{`provider::rms::delimiter_code(";")`, "59"},
			{`provider::rms::delimiter_code("\t")`, "9"},
			{`provider::rms::delimiter_code("|")`, "124"},
		},
		[]functionBad{
			{`provider::rms::delimiter_code("")`, []string{"delimiter_code", "The delimiter is empty"}},
			{`provider::rms::delimiter_code(",;")`, []string{"delimiter_code", "is 2 characters long"}},
			{`provider::rms::delimiter_code("44")`, []string{"delimiter_code", "already a delimiter code"}},
			{`provider::rms::delimiter_code("§")`, []string{"delimiter_code", "not an ASCII character"}},
			{`provider::rms::delimiter_code("\n")`, []string{"delimiter_code", "line break"}},
		})
}

func TestAccFunction_webhookSignature(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	testFunction(t,
		[]functionOK{
			{
				`provider::rms::webhook_signature("whsec_test", "1700000000", "{\"id\":\"d-1\",\"event\":\"contact.subscribed\"}")`,
				"v1=23ddd878a84df4558b5e49271d130278bd7ae5a6c133c312cfe5abf335625f4d",
			},
			// A number for the timestamp converts to its decimal string.
			{`provider::rms::webhook_signature("s3cr3t", 1700000000, "")`, "v1=f63f1341b06e485fe1fe78cbfd5f6d4cee0d492c21bbc3333af817254d0db38a"},
		},
		[]functionBad{
			{`provider::rms::webhook_signature("", "1700000000", "{}")`, []string{"webhook_signature", "secret is empty"}},
			{`provider::rms::webhook_signature("s", "yesterday", "{}")`, []string{"webhook_signature", "not Unix seconds"}},
		})
}

func TestAccFunction_contactImportID(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	testFunction(t,
		[]functionOK{
			{`provider::rms::contact_import_id("12", "ada@example.com")`, "12/ada@example.com"},
			{`provider::rms::contact_import_id(7, "crm/42")`, "7/crm/42"},
		},
		[]functionBad{
			{`provider::rms::contact_import_id("news", "ada@example.com")`, []string{"contact_import_id", "not a numeric list id"}},
			{`provider::rms::contact_import_id("12", "")`, []string{"contact_import_id", "originalId is empty"}},
		})
}

func TestAccFunction_batchTime(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	testFunction(t,
		[]functionOK{
			{`provider::rms::batch_time(1795341600000)`, "2026-11-22T10:00:00Z"},
			{`provider::rms::batch_time(1795341600123)`, "2026-11-22T10:00:00.123Z"},
			// The result is something Terraform's own time functions accept.
			{`timeadd(provider::rms::batch_time(1795341600000), "1h")`, "2026-11-22T11:00:00Z"},
		},
		[]functionBad{
			{`provider::rms::batch_time(-1)`, []string{"batch_time", "is negative"}},
			{`provider::rms::batch_time(1795341600000000)`, []string{"batch_time", "after the year 9999"}},
		})
}
