package provider_test

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
)

// provider::rms::contacts_csv renders contacts given as HCL objects (the
// shape of the rms_contacts data source's contacts, extra attributes
// dropped), and refuses contacts source_file could not read back.
func TestAccFunctionContactsCSV(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	const ada = `{ original_id = "ada", properties = { email = "ada@example.com", firstname = "Ada" }, email_status = "SUBSCRIBED", mobile_status = null, date_created = "2024-01-01T00:00:00Z" }`
	const bob = `{ original_id = "bob", properties = { email = "bob@example.com" }, email_status = "UNSUBSCRIBED", mobile_status = "SUBSCRIBED" }`
	testFunction(t,
		[]functionOK{
			{`provider::rms::contacts_csv([` + bob + `, ` + ada + `])`,
				"originalId,email,firstname,email_status,mobile_status\nada,ada@example.com,Ada,SUBSCRIBED,\nbob,bob@example.com,,UNSUBSCRIBED,SUBSCRIBED\n"},
			{`provider::rms::contacts_csv([])`, "originalId,email_status,mobile_status\n"},
		},
		[]functionBad{
			{`provider::rms::contacts_csv([` + ada + `, ` + ada + `])`, []string{"contacts_csv", `originalId "ada" appears twice`}},
			{`provider::rms::contacts_csv([{ original_id = "a", properties = { email_status = "x" }, email_status = null, mobile_status = null }])`, []string{"contacts_csv", `property named "email_status"`}},
			{`provider::rms::contacts_csv([{ original_id = null, properties = {}, email_status = null, mobile_status = null }])`, []string{"contacts_csv", "has no original_id"}},
		})
}
