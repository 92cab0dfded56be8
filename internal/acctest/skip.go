package acctest

import (
	"os"
	"testing"
)

// SkipUnlessAcceptance skips the test unless TF_ACC is set, as
// terraform-plugin-testing skips acceptance tests, but before the test has
// started anything: terraform-plugin-testing looks at TF_ACC only inside
// resource.Test, after the test has started its emulator and made its
// lists, which cost seconds of wall time per skipped test in make unit.
// Every acceptance test calls it first (the root package's
// TestAcceptanceTestsSkipFirst holds that), and so does every helper here
// that starts an emulator, builds the provider or runs the CLI.
func SkipUnlessAcceptance(t testing.TB) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 to run it (make test does)")
	}
}
