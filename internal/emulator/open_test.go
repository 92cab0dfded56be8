package emulator

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
)

// Fixtures preload a new data directory once; later starts restore the
// account as it was left and do not apply them again.
func TestDataDirAppliesFixturesOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		fx := &Fixtures{Projects: []map[string]any{{"name": "from fixtures"}}}
		first := openDataDir(t, dir, Options{Fixtures: fx})
		if got := first.Loaded(); !strings.Contains(got, "a new account in data directory") || !strings.Contains(got, "loaded fixtures: 0 properties, 1 projects") {
			t.Errorf("Loaded() = %q", got)
		}
		wantStatus(t, do(t, first, http.MethodDelete, "/rest/1000/projects/5", nil), http.StatusNoContent)
		first.Close()

		second := openDataDir(t, dir, Options{Fixtures: fx})
		defer second.Close()
		if got := second.Loaded(); !strings.HasSuffix(got, "fixtures not applied again") {
			t.Errorf("Loaded() = %q", got)
		}
		if items := decodeArray(t, do(t, second, http.MethodGet, "/rest/1000/projects", nil)); len(items) != 0 {
			t.Errorf("projects = %v, want none (deleted before the restart)", items)
		}
	})
}
