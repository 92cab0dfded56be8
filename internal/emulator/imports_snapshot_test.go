package emulator

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A REPLACE import that was running at the save applies its rows only when
// it finishes, and they were not kept: the restore fails it, and the list
// is as it was.
func TestDataDirFailsARunningReplaceImport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		first := openDataDir(t, dir, batchOpts())
		list := newImportList(t, first)
		mustCreate(t, first, "/rest/1000/lists/"+list+"/contacts", map[string]any{"originalId": "kept"})
		id := runImport(t, first, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "REPLACE"}, []byte("originalId\nnew\n"))
		advance(2500 * time.Millisecond) // every row read, the REPLACE not yet applied
		first.Close()

		second := openDataDir(t, dir, batchOpts())
		defer second.Close()
		v := decodeObject(t, do(t, second, http.MethodGet, "/rest/1000/batches/"+id, nil))
		if v["status"] != batchStatusFinished || !strings.Contains(v["error"].(string), "the REPLACE was not applied") {
			t.Errorf("batch = %v", v)
		}
		if got := contactsOf(t, second, list); len(got) != 1 || got["kept"] == "" {
			t.Errorf("contacts = %v, want the list as it was", got)
		}
	})
}
