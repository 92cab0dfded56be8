package emulator

import (
	"net/http"
	"testing"
)

// FuzzImportUpload sends arbitrary files, in each encoding and with several
// delimiters, through the import's upload: the parser must answer 202 (rows
// counted, bad ones too) or 400 naming the problem, never panic or hang,
// and the list must stay readable.
func FuzzImportUpload(f *testing.F) {
	f.Add([]byte("email,firstname\nada@example.com,Ada\n"), uint8(0), uint8(0))
	f.Add([]byte("email;firstname\r\nzoe@example.com;Zo\xeb\r\n"), uint8(2), uint8(1))
	f.Add([]byte("\xff\xfee\x00m\x00a\x00i\x00l\x00\n\x00"), uint8(1), uint8(0))
	f.Add([]byte("email,firstname\n\"unterminated,x\n"), uint8(0), uint8(0))
	f.Add([]byte("email,firstname\nragged\n"), uint8(3), uint8(2))
	encodings := []string{"UTF8", "UTF16", "ISO-8859-1", "ANSI"}
	delimiters := []string{"44", "59", "9"}
	f.Fuzz(func(t *testing.T, file []byte, enc, delim uint8) {
		s := New(Options{})
		list := newImportList(t, s)
		settings := map[string]any{
			"delimiter":      delimiters[int(delim)%len(delimiters)],
			"encoding":       encodings[int(enc)%len(encodings)],
			"type":           "ADD",
			"identityColumn": "email",
		}
		rec := upload(t, s, list, createImportOf(t, s, list, settings), file)
		if rec.Code != http.StatusAccepted && rec.Code != http.StatusBadRequest {
			t.Fatalf("upload answered %d: %s", rec.Code, rec.Body.String())
		}
		wantStatus(t, do(t, s, http.MethodGet, "/rest/1000/lists/"+list+"/contacts", nil), http.StatusOK)
	})
}
