package provider_test

import (
	"sort"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// The wire suite (make test-wire) runs acceptance scenarios against an
// emulator answering as a service that made other choices where the
// interface says "not shown" (emulator wire profiles): each profile on the
// scenarios its dimension touches, and `all` on every scenario. Each
// scenario applies, checks that the plan after apply is empty (every
// terraform-plugin-testing step does), changes something out of band and
// expects it as drift, and checks that destroy leaves nothing.
//
// make test leaves it out (-skip '^TestAccWire'): it is the same
// scenarios many times over, and runs in its own CI step.

// wireScenario is one scenario of the suite.
type wireScenario func(t *testing.T, opts emulator.Options)

// wireScenarios are the scenarios by name (wire_scenarios_test.go).
var wireScenarios = map[string]wireScenario{
	"entities":       wireEntitiesScenario,
	"batches":        wireBatchesScenario,
	"errors":         wireErrorsScenario,
	"contact-exists": wireContactExistsScenario,
	"paging":         wirePagingScenario,
	"paging-refused": wirePagingRefusedScenario,
	"list-contacts":  wireListContactsScenario,
	"dot-ids":        wireDotIDsScenario,
}

// wireProfileScenarios says which scenarios each profile's dimension
// touches. Every profile the emulator has must be here (a test checks).
var wireProfileScenarios = map[string][]string{
	emulator.WireCreateIDOnly:       {"entities", "contact-exists", "list-contacts", "dot-ids"},
	emulator.WireCreateLocation:     {"entities", "contact-exists", "list-contacts", "dot-ids"},
	emulator.WireWrite200:           {"entities", "batches"},
	emulator.WireUpdateEmpty:        {"entities", "list-contacts"},
	emulator.WireUpdate204:          {"entities", "list-contacts"},
	emulator.WireIDsString:          {"entities", "batches"},
	emulator.WireIDsNumber:          {"batches"},
	emulator.WireTimeMillis:         {"entities", "batches"},
	emulator.WireTimeSeconds:        {"entities", "batches"},
	emulator.WireTimeOffset:         {"entities", "batches"},
	emulator.WireOptionalNull:       {"entities", "batches"},
	emulator.WireOptionalEmpty:      {"entities", "batches"},
	emulator.WireExtraFields:        {"entities", "batches"},
	emulator.WireErrorsText:         {"errors", "contact-exists"},
	emulator.WireErrorsHTML:         {"errors", "contact-exists"},
	emulator.WireErrorsEmpty:        {"errors", "contact-exists"},
	emulator.WireErrorsOtherJSON:    {"errors", "contact-exists"},
	emulator.WireCharsetNone:        {"entities", "batches"},
	emulator.WireCharsetUpper:       {"entities", "batches"},
	emulator.WirePropertiesByID:     {"entities", "paging", "list-contacts", "dot-ids"},
	emulator.WireNoStatuses:         {"entities", "list-contacts", "dot-ids"},
	emulator.WireDoubleOptIn:        {"entities", "list-contacts", "dot-ids"},
	emulator.WireStatusOther:        {"entities", "list-contacts", "dot-ids"},
	emulator.WireContactConflict400: {"contact-exists"},
	emulator.WireContactUpsert:      {"contact-exists"},
	emulator.WirePagingIgnored:      {"paging", "entities", "list-contacts", "dot-ids"},
	emulator.WirePagingPageIgnored:  {"paging-refused"},
	emulator.WireBatchSparse:        {"batches"},
	emulator.WireBatchStatusOther:   {"batches"},
	emulator.WireResultDirect:       {"batches"},
	emulator.WireResultURLJSON:      {"batches"},
	emulator.WireNoListings:         {"batches"},
	// Every scenario but the one that proves an unreadable collection is
	// refused: `all` pages the way a service that ignores paging does.
	emulator.WireAllName: {"entities", "batches", "errors", "contact-exists", "paging", "list-contacts", "dot-ids"},
}

func TestAccWire(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	profiles := make([]string, 0, len(wireProfileScenarios))
	for p := range wireProfileScenarios {
		profiles = append(profiles, p)
	}
	sort.Strings(profiles)
	for _, profile := range profiles {
		wire, err := emulator.ParseWire(profile)
		if err != nil {
			t.Fatalf("profile %s: %v", profile, err)
		}
		for _, name := range wireProfileScenarios[profile] {
			scenario := wireScenarios[name]
			if scenario == nil {
				t.Fatalf("profile %s names scenario %q, which does not exist", profile, name)
			}
			t.Run(profile+"/"+name, func(t *testing.T) {
				scenario(t, emulator.Options{Wire: wire})
			})
		}
	}
}

// Every wire profile of the emulator is exercised by the suite, so a
// profile added later cannot go untested.
func TestWireSuiteCoversEveryProfile(t *testing.T) {
	t.Parallel()
	for _, p := range emulator.WireProfiles() {
		if len(wireProfileScenarios[p.Name]) == 0 {
			t.Errorf("wire profile %q has no scenarios in wireProfileScenarios", p.Name)
		}
	}
	if len(wireProfileScenarios[emulator.WireAllName]) < len(wireScenarios)-1 {
		t.Errorf("the all profile runs %d scenarios; it must run every scenario but paging-refused", len(wireProfileScenarios[emulator.WireAllName]))
	}
}
