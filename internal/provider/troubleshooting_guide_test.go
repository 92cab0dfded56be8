package provider_test

import (
	"os"
	"strings"
	"testing"
)

// TestTroubleshootingGuideCoversCatalogue keeps the user-facing table of
// diagnostics and the tested catalogue together: every row of the catalogue
// has its row in the guide.
func TestTroubleshootingGuideCoversCatalogue(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../templates/guides/troubleshooting.md")
	if err != nil {
		t.Fatal(err)
	}
	guide := string(raw)
	for name := range badInputCatalogue() {
		if !strings.Contains(guide, "| "+name+" |") {
			t.Errorf("troubleshooting guide has no row %q", name)
		}
	}
}
