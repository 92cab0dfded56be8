package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// newImportList creates a list and returns its id.
func newImportList(t *testing.T, s *Server) string {
	t.Helper()
	return idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "Customers"}))
}

// createImportOf runs step 1 and returns the import id.
func createImportOf(t *testing.T, s *Server, listID string, body map[string]any) string {
	t.Helper()
	rec := do(t, s, http.MethodPost, "/rest/1000/lists/"+listID+"/imports", body)
	wantStatus(t, rec, http.StatusCreated)
	var got map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	id, ok := got["id"].(string)
	if !ok || id == "" {
		t.Fatalf("import id = %#v, want a non-empty string", got["id"])
	}
	return id
}

// upload runs step 2 with a file.
func upload(t *testing.T, s *Server, listID, importID string, file []byte, opts ...reqOption) *httptest.ResponseRecorder {
	t.Helper()
	opts = append([]reqOption{withHeader("Content-Type", "text/csv")}, opts...)
	return do(t, s, http.MethodPost, "/rest/1000/lists/"+listID+"/recipients/"+importID, file, opts...)
}

// runImport creates an import, uploads file and returns the batch id.
func runImport(t *testing.T, s *Server, listID string, settings map[string]any, file []byte) string {
	t.Helper()
	rec := upload(t, s, listID, createImportOf(t, s, listID, settings), file)
	wantStatus(t, rec, http.StatusAccepted)
	var got map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got["batchId"] == "" {
		t.Fatalf("upload answered %s", rec.Body.String())
	}
	return got["batchId"]
}

// contactsOf returns the list's contacts by originalId: their properties and
// e-mail status.
func contactsOf(t *testing.T, s *Server, listID string) map[string]string {
	t.Helper()
	rec := do(t, s, http.MethodGet, "/rest/1000/lists/"+listID+"/contacts?pageSize=1000", nil)
	wantStatus(t, rec, http.StatusOK)
	var cs []state.ContactView
	if err := json.Unmarshal(rec.Body.Bytes(), &cs); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range cs {
		keys := make([]string, 0, len(c.Properties))
		for k := range c.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s ", k, c.Properties[k])
		}
		b.WriteString(c.Status)
		out[c.OriginalID] = b.String()
	}
	return out
}

var addUTF8 = map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}

func TestCreateImportValidation(t *testing.T) {
	s := New(Options{})
	list := newImportList(t, s)
	body := func(kv ...any) map[string]any {
		b := map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(b, kv[i].(string))
				continue
			}
			b[kv[i].(string)] = kv[i+1]
		}
		return b
	}
	const delimUsage = `delimiter must be the decimal ASCII code of the column delimiter, as a string: "44" for a comma, "59" for a semicolon, "9" for a tab`
	tests := []struct {
		name string
		body map[string]any
		want ErrorBody
	}{
		{"missing delimiter", body("delimiter", nil), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter",
			Message: `delimiter is mandatory; must be the decimal ASCII code of the column delimiter, as a string: "44" for a comma, "59" for a semicolon, "9" for a tab`}},
		{"the character instead of its code", body("delimiter", ","), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter", Message: delimUsage + `; got ","`}},
		{"a number", body("delimiter", 44), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter", Message: delimUsage + "; got a json.Number"}},
		{"zero", body("delimiter", "0"), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter", Message: delimUsage + `; got "0"`}},
		{"not ASCII", body("delimiter", "128"), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter", Message: delimUsage + `; got "128"`}},
		{"line feed", body("delimiter", "10"), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter",
			Message: `delimiter "10" ("\n") cannot separate columns: line breaks end rows and the double quote quotes fields`}},
		{"double quote", body("delimiter", "34"), ErrorBody{Status: 400, Code: CodeValidation, Field: "delimiter",
			Message: `delimiter "34" ("\"") cannot separate columns: line breaks end rows and the double quote quotes fields`}},
		{"missing encoding", body("encoding", nil), ErrorBody{Status: 400, Code: CodeValidation, Field: "encoding", Message: "encoding is mandatory; one of UTF8, UTF16, ISO-8859-1, ANSI"}},
		{"UTF-8", body("encoding", "UTF-8"), ErrorBody{Status: 400, Code: CodeValidation, Field: "encoding",
			Message: `encoding "UTF-8" is not supported; did you mean UTF8? Allowed: UTF8, UTF16, ISO-8859-1, ANSI`}},
		{"windows-1252", body("encoding", "windows-1252"), ErrorBody{Status: 400, Code: CodeValidation, Field: "encoding",
			Message: `encoding "windows-1252" is not supported; did you mean ANSI? Allowed: UTF8, UTF16, ISO-8859-1, ANSI`}},
		{"EBCDIC", body("encoding", "EBCDIC"), ErrorBody{Status: 400, Code: CodeValidation, Field: "encoding",
			Message: `encoding "EBCDIC" is not supported; allowed: UTF8, UTF16, ISO-8859-1, ANSI`}},
		{"lower-case type", body("type", "replace"), ErrorBody{Status: 400, Code: CodeValidation, Field: "type",
			Message: `type "replace" is not supported; did you mean REPLACE? Allowed: ADD, REPLACE, UNSUBSCRIBE`}},
		{"unknown type", body("type", "MERGE"), ErrorBody{Status: 400, Code: CodeValidation, Field: "type",
			Message: `type "MERGE" is not supported; allowed: ADD, REPLACE, UNSUBSCRIBE`}},
		{"empty identityColumn", body("identityColumn", " "), ErrorBody{Status: 400, Code: CodeValidation, Field: "identityColumn",
			Message: `identityColumn must be the name of a column of the file, e.g. "email"; leave it out to identify contacts by an originalId column`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, do(t, s, http.MethodPost, "/rest/1000/lists/"+list+"/imports", tt.body), tt.want)
		})
	}
	wantError(t, do(t, s, http.MethodPost, "/rest/1000/lists/999/imports", body()),
		ErrorBody{Status: 404, Code: CodeNotFound, Message: "no list with id 999"})
	wantError(t, do(t, s, http.MethodPost, "/rest/1000/lists/abc/imports", body()),
		ErrorBody{Status: 404, Code: CodeNotFound, Message: `no list with id "abc"`})
	for _, ok := range []map[string]any{body("delimiter", "9", "encoding", "UTF16", "type", "REPLACE"), body("delimiter", "59", "encoding", "ANSI", "type", "UNSUBSCRIBE", "identityColumn", "email")} {
		createImportOf(t, s, list, ok)
	}
	// Nothing but step 2 (and the listing of the conventions) is served below an import.
	wantErrorCode(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+list+"/imports", map[string]any{}), http.StatusMethodNotAllowed, CodeMethodNotAllowed)
}

// The rows really change the list, at the pace of the batch.
func TestImportAddAppliesRowsAsTheBatchProgresses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchPendingFor: time.Second, BatchRowsPerSecond: 1})
		list := newImportList(t, s)
		if err := s.UpsertContacts(mustParseID(t, list), []Contact{{OriginalID: "c1", Properties: map[string]string{"firstname": "Old", "lastname": "Kept"}}}); err != nil {
			t.Fatal(err)
		}
		file := "originalId,firstname,email\n" +
			"c1,Ada,\n" + // merges: firstname changes, lastname stays, empty email changes nothing
			"c2,Grace,grace@example.com\n" +
			"c3,too,many,fields\n" + // bad row
			",Nobody,\n" + // bad row: no identity
			"c4,Linus,linus@example.com\n"
		batch := runImport(t, s, list, addUTF8, []byte(file))

		v := getBatchView(t, s, batch)
		if v.Type != "IMPORT" || v.Status != "PENDING" || v.Total != 5 || v.Processed != 0 {
			t.Fatalf("new import batch = %+v", v)
		}
		if got := contactsOf(t, s, list); len(got) != 1 {
			t.Errorf("contacts changed before the batch ran: %v", got)
		}
		advance(3 * time.Second) // two rows handled
		if v := getBatchView(t, s, batch); v.Status != "IN_PROGRESS" || v.Processed != 2 || v.Affected != 2 {
			t.Errorf("after 2s of work: %+v", v)
		}
		if got := contactsOf(t, s, list); len(got) != 2 {
			t.Errorf("after two rows the list holds %v", got)
		}
		advance(3 * time.Second)
		v = getBatchView(t, s, batch)
		if v.Status != "FINISHED" || v.Processed != 5 || v.Affected != 3 || v.Failed != 2 || v.Error != "" {
			t.Errorf("finished batch = %+v, want 5 processed, 3 affected, 2 failed", v)
		}
		wantRows := []state.FailedRow{
			{Row: 4, Reason: "4 fields where the header has 3"},
			{Row: 5, Reason: `the identity column "originalId" is empty`},
		}
		if diff := cmp.Diff(wantRows, v.FailedRows); diff != "" {
			t.Errorf("failedRows (-want +got):\n%s", diff)
		}
		want := map[string]string{
			"c1": "firstname=Ada lastname=Kept SUBSCRIBED",
			"c2": "email=grace@example.com firstname=Grace SUBSCRIBED",
			"c4": "email=linus@example.com firstname=Linus SUBSCRIBED",
		}
		if diff := cmp.Diff(want, contactsOf(t, s, list)); diff != "" {
			t.Errorf("contacts (-want +got):\n%s", diff)
		}
	})
}

func mustParseID(t *testing.T, s string) int64 {
	t.Helper()
	id, ok := parseID(s)
	if !ok {
		t.Fatalf("bad id %q", s)
	}
	return id
}

func TestImportReplaceAndUnsubscribe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchRowsPerSecond: 1})
		list := newImportList(t, s)
		seed := []Contact{
			{OriginalID: "a", Properties: map[string]string{"email": "a@example.com", "firstname": "A"}},
			{OriginalID: "b", Properties: map[string]string{"email": "b@example.com", "firstname": "B"}},
			{OriginalID: "c", Properties: map[string]string{"email": "c@example.com"}},
		}
		if err := s.UpsertContacts(mustParseID(t, list), seed); err != nil {
			t.Fatal(err)
		}

		// UNSUBSCRIBE by e-mail address; other columns are ignored, even ones
		// that are no attribute; a row without a contact changes nothing.
		batch := runImport(t, s, list, map[string]any{"delimiter": "59", "encoding": "UTF8", "type": "UNSUBSCRIBE", "identityColumn": "email"},
			[]byte("email;reason\na@example.com;moved\nnobody@example.com;?\n"))
		advance(time.Minute)
		if v := getBatchView(t, s, batch); v.Status != "FINISHED" || v.Affected != 0 || v.Processed != 2 {
			// The identity is the originalId: "a@example.com" is no contact's.
			t.Errorf("unsubscribe by a column that is not the originalId: %+v", v)
		}
		batch = runImport(t, s, list, map[string]any{"delimiter": "59", "encoding": "UTF8", "type": "UNSUBSCRIBE"},
			[]byte("originalId;reason\na;moved\nc;?\nzz;unknown\n"))
		advance(time.Minute)
		if v := getBatchView(t, s, batch); v.Status != "FINISHED" || v.Affected != 2 || v.Failed != 0 || v.Processed != 3 {
			t.Errorf("unsubscribe batch = %+v, want 2 affected of 3", v)
		}
		want := map[string]string{
			"a": "email=a@example.com firstname=A UNSUBSCRIBED",
			"b": "email=b@example.com firstname=B SUBSCRIBED",
			"c": "email=c@example.com UNSUBSCRIBED",
		}
		if diff := cmp.Diff(want, contactsOf(t, s, list)); diff != "" {
			t.Errorf("after UNSUBSCRIBE (-want +got):\n%s", diff)
		}

		// REPLACE: the file's contacts become the list, at once when finished.
		batch = runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "REPLACE"},
			[]byte("originalId,firstname\na,Ann\nd,Dee\nd,Dee again\nbad\n"))
		advance(3 * time.Second)
		if v := getBatchView(t, s, batch); v.Status != "IN_PROGRESS" || len(contactsOf(t, s, list)) != 3 {
			t.Errorf("replace changed the list before finishing: %+v %v", v, contactsOf(t, s, list))
		}
		advance(time.Minute)
		v := getBatchView(t, s, batch)
		if v.Status != "FINISHED" || v.Processed != 4 || v.Affected != 3 || v.Failed != 1 {
			t.Errorf("replace batch = %+v", v)
		}
		want = map[string]string{
			"a": "firstname=Ann UNSUBSCRIBED", // kept: its state stays, its values are the file's
			"d": "firstname=Dee again SUBSCRIBED",
		}
		if diff := cmp.Diff(want, contactsOf(t, s, list)); diff != "" {
			t.Errorf("after REPLACE (-want +got):\n%s", diff)
		}

		// REPLACE with a header only empties the list.
		batch = runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "REPLACE"}, []byte("originalId\n"))
		advance(time.Second)
		if v := getBatchView(t, s, batch); v.Status != "FINISHED" || v.Total != 0 {
			t.Errorf("empty replace = %+v", v)
		}
		if got := contactsOf(t, s, list); len(got) != 0 {
			t.Errorf("an empty REPLACE left %v", got)
		}
	})
}

// Non-ASCII names survive each encoding; delimiters other than the comma
// work; an identity column that is an attribute sets it too.
func TestImportEncodingsAndDelimiters(t *testing.T) {
	utf16be := unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	tests := []struct {
		encoding  string
		encoder   encoding.Encoding // nil: the text as is (UTF-8)
		prefix    string            // bytes before the text
		delimiter string
		sep       string
		extra     string // a name only this encoding can carry
	}{
		{"UTF8", nil, "", "44", ",", "Łukasz"},
		{"UTF8", nil, "\xef\xbb\xbf", "9", "\t", "日本"},                                        // with a byte order mark
		{"UTF16", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "", "59", ";", "Ω"},    // BOM, little-endian
		{"UTF16", utf16be, "", "44", ",", "Ω"},                                                // BOM, big-endian
		{"UTF16", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "", "44", ",", "Ω"}, // no BOM: little-endian
		{"ISO-8859-1", charmap.ISO8859_1, "", "124", "|", "Ñandú"},
		{"ANSI", charmap.Windows1252, "", "44", ",", "Œuvre €"},
	}
	for _, tt := range tests {
		t.Run(tt.encoding+" "+tt.sep, func(t *testing.T) {
			s := New(Options{})
			list := newImportList(t, s)
			text := strings.Join([]string{
				strings.Join([]string{"email", "firstname", "lastname"}, tt.sep),
				strings.Join([]string{"asa@example.com", "Åsa", "Öberg"}, tt.sep),
				strings.Join([]string{"zoe@example.com", "Zoë", `"` + tt.extra + `"`}, tt.sep),
			}, "\r\n") + "\r\n"
			raw := []byte(text)
			if tt.encoder != nil {
				var err error
				if raw, err = tt.encoder.NewEncoder().Bytes(raw); err != nil {
					t.Fatal(err)
				}
			}
			raw = append([]byte(tt.prefix), raw...)
			runImport(t, s, list, map[string]any{"delimiter": tt.delimiter, "encoding": tt.encoding, "type": "ADD", "identityColumn": "email"}, raw)
			want := map[string]string{
				"asa@example.com": "email=asa@example.com firstname=Åsa lastname=Öberg SUBSCRIBED",
				"zoe@example.com": "email=zoe@example.com firstname=Zoë lastname=" + tt.extra + " SUBSCRIBED",
			}
			if diff := cmp.Diff(want, contactsOf(t, s, list)); diff != "" {
				t.Errorf("contacts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportUploadErrors(t *testing.T) {
	s := New(Options{})
	list := newImportList(t, s)
	other := newImportList(t, s)
	tests := []struct {
		name     string
		settings map[string]any
		file     string
		want     ErrorBody
	}{
		{"empty file", addUTF8, "", ErrorBody{Status: 400, Code: CodeValidation, Message: "the import file is empty; its first row must name the columns"}},
		{"bare quote", addUTF8, "originalId,firstname\na,Ada\nb,Bo\"b\n", ErrorBody{Status: 400, Code: CodeValidation,
			Message: `the import file cannot be read as CSV: row 3 (line 3, column 5): bare " in non-quoted-field; quote fields that contain the delimiter, quotes or line breaks`}},
		{"not UTF-8", addUTF8, "originalId,firstname\na,\xc5sa\n", ErrorBody{Status: 400, Code: CodeValidation,
			Message: "the import file is not valid UTF-8 at row 2; if it was saved by an older Windows program, create the import with encoding ANSI or ISO-8859-1"}},
		{"no originalId column", addUTF8, "email,firstname\na@example.com,A\n", ErrorBody{Status: 400, Code: CodeValidation,
			Message: `the import file has no column "originalId" to identify contacts by (its columns: email, firstname); add an originalId column, or name the identifying column with identityColumn`}},
		{"no identity column", map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD", "identityColumn": "customerNo"}, "email\na@example.com\n",
			ErrorBody{Status: 400, Code: CodeValidation, Field: "identityColumn", Message: `the import file has no column "customerNo" to identify contacts by (its columns: email)`}},
		{"unknown column", addUTF8, "originalId,shoe size\na,42\n", ErrorBody{Status: 400, Code: CodeValidation,
			Message: `column "shoe size" of the import file is not a contact attribute of the account (attributes: email, mobile, firstname, lastname); rename the column, or add the attribute with POST .../properties`}},
		{"status column", addUTF8, "originalId,email_status\na,UNSUBSCRIBED\n", ErrorBody{Status: 400, Code: CodeValidation,
			Message: `column "email_status" of the import file is not a contact attribute of the account (attributes: email, mobile, firstname, lastname); rename the column, or add the attribute with POST .../properties`}},
		{"one attribute by name and by id", addUTF8, "originalId,firstname,3\na,Ann,Bob\n", ErrorBody{Status: 400, Code: CodeValidation,
			Message: `columns "firstname" and "3" of the import file name the same contact attribute (id 3); give it once`}},
		{"twice the same column", addUTF8, "originalId,email,email\n", ErrorBody{Status: 400, Code: CodeValidation, Message: `the import file names column "email" twice`}},
		{"empty column name", addUTF8, "originalId,,email\n", ErrorBody{Status: 400, Code: CodeValidation, Message: "the import file's first row has an empty column name; it must name every column"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := createImportOf(t, s, list, tt.settings)
			wantError(t, upload(t, s, list, id, []byte(tt.file)), tt.want)
			// A refused file changes nothing: the import can be uploaded again.
			settingsIdentity, _ := tt.settings["identityColumn"].(string)
			if settingsIdentity == "" {
				settingsIdentity = "originalId"
			}
			wantStatus(t, upload(t, s, list, id, []byte(settingsIdentity+"\nx\n")), http.StatusAccepted)
		})
	}

	id := createImportOf(t, s, list, addUTF8)
	wantErrorCode(t, upload(t, s, list, id, []byte("originalId\na\n"), withHeader("Content-Type", "application/json")), http.StatusUnsupportedMediaType, CodeUnsupportedMediaType)
	wantErrorCode(t, upload(t, s, list, id, []byte("originalId\na\n"), withHeader("Accept", "text/plain")), http.StatusNotAcceptable, CodeNotAcceptable)
	wantError(t, upload(t, s, other, id, []byte("originalId\na\n")), ErrorBody{Status: 404, Code: CodeNotFound,
		Message: fmt.Sprintf("no import with id %q in list %s; create one with POST .../lists/%s/imports", id, other, other)})
	wantErrorCode(t, upload(t, s, list, "999", []byte("originalId\na\n")), http.StatusNotFound, CodeNotFound)
	wantStatus(t, upload(t, s, list, id, []byte("originalId\na\n")), http.StatusAccepted)
	rec := upload(t, s, list, id, []byte("originalId\na\n"))
	wantErrorCode(t, rec, http.StatusConflict, CodeConflict)
	if !strings.Contains(rec.Body.String(), "was already uploaded (batch ") {
		t.Errorf("409 body = %s", rec.Body.String())
	}
}

// A failed IMPORT batch (injected) does not replace the list.
func TestImportBatchFailure(t *testing.T) {
	s := New(Options{BatchError: func(typ string) string {
		if typ == "IMPORT" {
			return "the import worker crashed"
		}
		return ""
	}})
	list := newImportList(t, s)
	if err := s.UpsertContacts(mustParseID(t, list), []Contact{{OriginalID: "keep"}}); err != nil {
		t.Fatal(err)
	}
	batch := runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "REPLACE"}, []byte("originalId\nnew\n"))
	if v := getBatchView(t, s, batch); v.Status != "FINISHED" || v.Error != "the import worker crashed" {
		t.Errorf("batch = %+v", v)
	}
	if got := contactsOf(t, s, list); len(got) != 1 || got["keep"] == "" {
		t.Errorf("a failed replace changed the list: %v", got)
	}
}

// A large file is read as a stream and applied; the emulator keeps only
// its compact rows, and releases them when the batch finishes.
func TestImportLargeFile(t *testing.T) {
	s := New(Options{})
	list := newImportList(t, s)
	const n = 50_000
	pr, pw := io.Pipe()
	go func() {
		_, _ = io.WriteString(pw, "originalId,email,firstname\n")
		for i := range n {
			_, _ = fmt.Fprintf(pw, "c%d,c%d@example.com,Name %d\n", i, i, i)
		}
		_ = pw.Close()
	}()
	srv := httptest.NewServer(s)
	defer srv.Close()
	id := createImportOf(t, s, list, addUTF8)
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/rest/1000/lists/"+list+"/recipients/"+id, pr)
	req.SetBasicAuth(DefaultUsername, DefaultPassword)
	req.Header.Set("Content-Type", "text/csv")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var started map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&started); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %v", resp.StatusCode, err)
	}
	v := getBatchView(t, s, started["batchId"])
	if v.Status != "FINISHED" || v.Total != n || v.Affected != n {
		t.Errorf("batch = %+v", v)
	}
	rec := do(t, s, http.MethodGet, "/rest/1000/lists/"+list+"/contacts?pageSize=1", nil)
	if rec.Header().Get("X-Total-Count") != fmt.Sprint(n) {
		t.Errorf("list holds %s contacts, want %d", rec.Header().Get("X-Total-Count"), n)
	}
	b, _ := s.batchesAPI.batch(mustParseID(t, started["batchId"]))
	if job := b.Work.(*importJob); job.rows.blocks != nil {
		t.Error("a finished import keeps its rows")
	}
}

// The import routes answer as the OpenAPI document says.
func TestImportResponsesMatchOpenAPIDocument(t *testing.T) {
	s := New(Options{})
	doc := loadServedDocument(t, s)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	list := newImportList(t, s)
	check := func(name, method, path, contentType, body string, wantStatus int, wantOp string) *httptest.ResponseRecorder {
		t.Helper()
		rec := do(t, s, method, path, body, withHeader("Content-Type", contentType))
		if rec.Code != wantStatus {
			t.Fatalf("%s: status %d, want %d: %s", name, rec.Code, wantStatus, rec.Body.String())
		}
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s: no documented route: %v", name, err)
		}
		if route.Operation.OperationID != wantOp {
			t.Errorf("%s: routed to %s, want %s", name, route.Operation.OperationID, wantOp)
		}
		reqInput := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		if wantStatus < 300 {
			if err := openapi3filter.ValidateRequest(context.Background(), reqInput); err != nil {
				t.Errorf("%s: the document refuses the request: %v", name, err)
			}
		}
		err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: reqInput, Status: rec.Code, Header: rec.Header(),
			Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())), Options: &openapi3filter.Options{IncludeResponseStatus: true},
		})
		if err != nil {
			t.Errorf("%s: response does not match the document: %v\nbody: %.300s", name, err, rec.Body.String())
		}
		return rec
	}
	rec := check("create", http.MethodPost, "/rest/1000/lists/"+list+"/imports", "application/json", `{"delimiter":"44","encoding":"UTF8","type":"ADD"}`, 201, "createImport")
	var created map[string]string
	_ = json.Unmarshal(rec.Body.Bytes(), &created)
	check("bad create", http.MethodPost, "/rest/1000/lists/"+list+"/imports", "application/json", `{"delimiter":",","encoding":"UTF8","type":"ADD"}`, 400, "createImport")
	path := "/rest/1000/lists/" + list + "/recipients/" + created["id"]
	check("bad file", http.MethodPost, path, "text/csv", "nothing useful\n", 400, "uploadImport")
	check("upload", http.MethodPost, path, "text/csv", "originalId,email\na,a@example.com\n", 202, "uploadImport")
	check("again", http.MethodPost, path, "text/csv", "originalId\na\n", 409, "uploadImport")
	check("list imports", http.MethodGet, "/rest/1000/lists/"+list+"/imports?pageSize=1", "", "", 200, "listImports")
	check("list imports page 2", http.MethodGet, "/rest/1000/lists/"+list+"/imports?page=1&pageSize=1", "", "", 200, "listImports")
	check("list batches", http.MethodGet, "/rest/1000/batches?type=IMPORT", "", "", 200, "listBatches")
	check("bad batch type", http.MethodGet, "/rest/1000/batches?type=X", "", "", 400, "listBatches")
}

// The listing of a list's imports (a convention: the interface shows none)
// shows each import's request, when it was made and, once uploaded, its
// batch; it pages like every collection.
func TestListImportsShowsRequestAndBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		s := New(Options{})
		list, other := newImportList(t, s), newImportList(t, s)
		first := createImportOf(t, s, list, map[string]any{"delimiter": "59", "encoding": "ANSI", "type": "ADD", "identityColumn": " email "})
		advance(2 * time.Second)
		second := createImportOf(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "REPLACE"})
		createImportOf(t, s, other, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"})
		rec := upload(t, s, list, first, []byte("email\na@example.com\n"))
		wantStatus(t, rec, http.StatusAccepted)
		var started map[string]string
		_ = json.Unmarshal(rec.Body.Bytes(), &started)

		rec = do(t, s, http.MethodGet, "/rest/1000/lists/"+list+"/imports", nil)
		wantStatus(t, rec, http.StatusOK)
		if got := rec.Header().Get("X-Total-Count"); got != "2" {
			t.Errorf("X-Total-Count = %q, want 2", got)
		}
		want := []map[string]any{
			{"id": first, "listId": list, "delimiter": "59", "encoding": "ANSI", "type": "ADD", "identityColumn": "email", "dateCreated": rfc3339(t0), "batchId": started["batchId"]},
			{"id": second, "listId": list, "delimiter": "44", "encoding": "UTF8", "type": "REPLACE", "identityColumn": nil, "dateCreated": rfc3339(t0.Add(2 * time.Second)), "batchId": nil},
		}
		if diff := cmp.Diff(want, decodeArray(t, rec)); diff != "" {
			t.Errorf("imports (-want +got):\n%s", diff)
		}
		page := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/lists/"+list+"/imports?page=1&pageSize=1", nil))
		if len(page) != 1 || page[0]["id"] != second {
			t.Errorf("page 1 of size 1 = %v, want import %s", page, second)
		}
		wantError(t, do(t, s, http.MethodGet, "/rest/1000/lists/999/imports", nil),
			ErrorBody{Status: 404, Code: CodeNotFound, Message: "no list with id 999"})
	})
}

// The batch listing shows every batch as GET batches/{id} does, with the
// request that started it, and filters by type.
func TestListBatchesShowsRequests(t *testing.T) {
	s := New(Options{})
	list := newImportList(t, s)
	exportID := startExport(t, s, "LISTS", "LAST_WEEK")
	importBatch := runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}, []byte("originalId\na\n"))
	all := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/batches", nil))
	if len(all) != 2 || fmt.Sprint(all[0]["id"]) != exportID || fmt.Sprint(all[1]["id"]) != importBatch {
		t.Fatalf("batches = %v, want the export %s then the import batch %s", all, exportID, importBatch)
	}
	if all[0]["exportType"] != "LISTS" || all[0]["period"] != "LAST_WEEK" || all[0]["dateCreated"] == nil {
		t.Errorf("export batch = %v, want its exportType, period and dateCreated", all[0])
	}
	if all[1]["listId"] != list || all[1]["importId"] == nil {
		t.Errorf("import batch = %v, want its listId and importId", all[1])
	}
	exports := decodeArray(t, do(t, s, http.MethodGet, "/rest/1000/batches?type=STAT_EXPORT", nil))
	if len(exports) != 1 || fmt.Sprint(exports[0]["id"]) != exportID {
		t.Errorf("STAT_EXPORT batches = %v, want only %s", exports, exportID)
	}
	if one := decodeObject(t, do(t, s, http.MethodGet, "/rest/1000/batches/"+exportID, nil)); one["exportType"] != "LISTS" {
		t.Errorf("GET batch = %v, want the same view with exportType", one)
	}
}

// Finished batches are announced to the webhooks subscribed to
// import.finished and export.finished, once each, with their counts.
func TestFinishedBatchesEmitWebhookEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchPendingFor: time.Second})
		defer s.Close()
		rc := newReceiver()
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": rc.attach(s), "events": []string{"import.finished", "export.finished"}})
		list := newImportList(t, s)
		batch := runImport(t, s, list, addUTF8, []byte("originalId\na\n\nb\nbad,row\n"))
		export := startExport(t, s, "LISTS", "TODAY")
		// Unfinished: nothing yet; then both finish, seen by several requests.
		getBatchView(t, s, batch)
		synctest.Wait()
		if n := len(rc.received()); n != 0 {
			t.Errorf("%d deliveries before the batches finished, want none", n)
		}
		advance(time.Second)
		getBatchView(t, s, batch)
		getBatchView(t, s, export)
		synctest.Wait()
		got := rc.received()
		if len(got) != 2 {
			t.Fatalf("%d deliveries, want one import.finished and one export.finished", len(got))
		}
		events := map[string]map[string]any{}
		for _, d := range got {
			var body struct {
				Event string         `json:"event"`
				Data  map[string]any `json:"data"`
			}
			if err := json.Unmarshal(d.body, &body); err != nil {
				t.Fatal(err)
			}
			events[body.Event] = body.Data
		}
		wantImport := map[string]any{"batchId": batch, "type": "IMPORT", "status": "FINISHED", "total": 3.0, "processed": 3.0, "affected": 2.0, "failed": 1.0,
			"listId": list, "importId": events["import.finished"]["importId"], "importType": "ADD"}
		if diff := cmp.Diff(wantImport, events["import.finished"]); diff != "" {
			t.Errorf("import.finished data (-want +got):\n%s", diff)
		}
		wantExport := map[string]any{"batchId": export, "type": "STAT_EXPORT", "status": "FINISHED", "total": 1.0, "processed": 1.0, "affected": 1.0, "failed": 0.0,
			"exportType": "LISTS", "period": "TODAY"}
		if diff := cmp.Diff(wantExport, events["export.finished"]); diff != "" {
			t.Errorf("export.finished data (-want +got):\n%s", diff)
		}
		// Later requests announce nothing again: once every delivery
		// goroutine is done (synctest.Wait), there are still two.
		getBatchView(t, s, batch)
		getBatchView(t, s, export)
		synctest.Wait()
		if n := len(rc.received()); n != 2 {
			t.Errorf("%d deliveries after more requests, want 2: a finished batch was announced twice", n)
		}
	})
}

// A batch names at most maxFailedRowsShown failed rows, the first ones;
// failed counts them all.
func TestImportFailedRowsAreBounded(t *testing.T) {
	s := New(Options{})
	list := newImportList(t, s)
	file := "originalId,firstname\n"
	for i := range maxFailedRowsShown + 5 {
		file += fmt.Sprintf("bad%d\n", i)
	}
	file += "c1,Ada\n"
	v := getBatchView(t, s, runImport(t, s, list, addUTF8, []byte(file)))
	if v.Status != "FINISHED" || v.Failed != maxFailedRowsShown+5 || v.Affected != 1 {
		t.Fatalf("batch = %+v, want FINISHED with %d failed and 1 affected", v, maxFailedRowsShown+5)
	}
	if len(v.FailedRows) != maxFailedRowsShown || v.FailedRows[0].Row != 2 || v.FailedRows[maxFailedRowsShown-1].Row != maxFailedRowsShown+1 {
		t.Errorf("failedRows = %+v, want rows 2 to %d", v.FailedRows, maxFailedRowsShown+1)
	}
}
