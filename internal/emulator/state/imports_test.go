package state

import (
	"net/http"
	"testing"
)

// An import is uploaded once: a claim while another upload runs, or after
// one succeeded, is a 409; a refused upload leaves it free again.
func TestImportsClaimAndRelease(t *testing.T) {
	st := NewStore()
	imp := st.Imports.Create(Import{ListID: 7, Delimiter: ',', Encoding: "UTF8", Type: "ADD", Identity: "originalId"})
	steps := []struct {
		name      string
		list, id  int64
		release   int64 // after a successful claim: the batch to record, -1 for none
		wantFound bool
		wantErr   int // the error's status, 0 for none
	}{
		{"another list's import", 8, imp.ID, -1, false, 0},
		{"no such import", 7, imp.ID + 1, -1, false, 0},
		{"first claim, refused upload", 7, imp.ID, 0, true, 0},
		{"claimed again after a refusal", 7, imp.ID, -1, true, 0},
		{"while that upload runs", 7, imp.ID, -1, true, http.StatusConflict},
	}
	for _, s := range steps {
		got, found, err := st.Imports.Claim(s.list, s.id)
		if found != s.wantFound || (err == nil) != (s.wantErr == 0) || (err != nil && err.Status != s.wantErr) {
			t.Fatalf("%s: found %v, err %v; want found %v, status %d", s.name, found, err, s.wantFound, s.wantErr)
		}
		if found && err == nil && s.release >= 0 {
			if !got.Uploading || got.ID != imp.ID {
				t.Fatalf("%s: claimed %+v", s.name, got)
			}
			st.Imports.Release(got.ID, s.release)
		}
	}
	st.Imports.Release(imp.ID, 42)
	if _, _, err := st.Imports.Claim(7, imp.ID); err == nil || err.Status != http.StatusConflict {
		t.Errorf("claim after an upload: %v, want 409", err)
	}
	if all := st.Imports.OfList(7); len(all) != 1 || all[0].BatchID != 42 || all[0].Uploading {
		t.Errorf("OfList(7) = %+v, want the import with batch 42", all)
	}
}
