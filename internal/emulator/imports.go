package emulator

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// Imports, in exactly the interface's three steps:
//
//  1. POST .../lists/{listId}/imports with { delimiter, encoding, type,
//     identityColumn } answers 201 with { id } (the import id, a string).
//  2. POST .../lists/{listId}/recipients/{id} with Content-Type: text/csv and
//     the file as the body answers 202 with { batchId }. The body is read as
//     a stream, decoded from the declared encoding and split at the declared
//     delimiter, one row at a time; a file that cannot be read (bad quoting,
//     bytes that are not valid in the encoding, no identity column, a column
//     that is not a contact attribute, two columns naming one attribute) is
//     refused with 400 and nothing
//     changes, so the same import id can be uploaded again. An import id is
//     uploaded once: a second upload is 409.
//  3. GET .../batches/{batchId} shows the IMPORT batch applying the rows to
//     the list through the contacts store, at the pace of batches.go.
//
// GET .../lists/{listId}/imports, which the interface does not show, lists
// the list's imports (a documented convention, see the conventions guide):
// each with the request it was created with, its dateCreated and its
// batchId once uploaded, so that a client whose step 1 or 2 had an unknown
// outcome can find what it made.
//
// The file's first row names the columns. The identity column
// (identityColumn, or "originalId" when none is given) identifies each
// contact: its value becomes the contact's originalId. Every other column
// names a contact attribute by name or id (the account's properties); the
// identity column is an attribute too when it names one (e.g. "email").
// The interface maps file columns to attributes only: there are no status
// columns, so an "email_status" column is an attribute like any other, and
// refused when the account has none of that name.
// Rows whose number of fields differs from the header's, or whose identity
// value is empty, are bad rows: counted in the batch's "failed", not fatal.
// The batch also names the first maxFailedRowsShown rows that failed, bad
// or refused by the contacts store, in an added "failedRows" field: each
// with its row number in the file (the header is row 1) and the reason, so
// that a client can say which rows to correct.
//
//   - ADD adds each row's contact or merges its non-empty values into the
//     existing one (empty cells change nothing).
//   - REPLACE makes the file's contacts the whole list, at once, when the
//     batch finishes: contacts not in the file leave the list; a contact in
//     the file keeps its id and states and takes exactly the file's values.
//   - UNSUBSCRIBE sets the e-mail status of each contact with a matching row
//     to UNSUBSCRIBED; rows without a contact change nothing. Other columns
//     are ignored.
//
// The emulator keeps the parsed rows of a running import compactly in memory
// (they are released when the batch finishes); clients stream the file.

// importTypes, importEncodings: the interface's values.
var (
	importTypes     = []string{"ADD", "REPLACE", "UNSUBSCRIBE"}
	importEncodings = []string{"UTF8", "UTF16", "ISO-8859-1", "ANSI"}
	// importEncodingHints maps common spellings onto the interface's.
	importEncodingHints = map[string]string{
		"UTF-8": "UTF8", "UTF_8": "UTF8", "UTF-16": "UTF16", "UTF-16LE": "UTF16", "UTF-16BE": "UTF16",
		"LATIN1": "ISO-8859-1", "LATIN-1": "ISO-8859-1", "ISO8859-1": "ISO-8859-1", "ISO-8859-15": "ISO-8859-1",
		"WINDOWS-1252": "ANSI", "CP1252": "ANSI",
	}
)

// defaultIdentityColumn names the identity column when identityColumn is
// not given: the contact's originalId itself.
const defaultIdentityColumn = "originalId"

// listImport is an import created by step 1.
type listImport struct {
	id        int64
	listID    int64
	delimiter rune
	encoding  string
	typ       string
	identity  string
	// identityGiven is identityColumn as the request gave it ("" when left
	// out), shown by the listing so a client can match its request.
	identityGiven string
	created       string // dateCreated, RFC 3339
	uploading     bool   // step 2 is reading the body
	batchID       int64  // set once step 2 succeeded
}

// importRegistry holds the account's imports.
type importRegistry struct {
	mu   sync.Mutex
	byID map[int64]*listImport
}

func newImportRegistry() *importRegistry {
	return &importRegistry{byID: map[int64]*listImport{}}
}

const (
	importsPath    = "/rest/{customerid}/lists/{listId}/imports"
	recipientsPath = "/rest/{customerid}/lists/{listId}/recipients/{id}"
)

func (s *importsAPI) registerImports() {
	s.handleJSON("GET "+importsPath, s.listImports)
	s.handleJSON("POST "+importsPath, s.createImport)
	s.handle("POST "+recipientsPath, s.uploadImport)
}

// importListID reads {listId}; an id that cannot exist is a 404.
func (s *importsAPI) importListID(r *http.Request) (int64, *apierr.Error) {
	raw := r.PathValue("listId")
	id, ok := parseID(raw)
	if !ok {
		return 0, apierr.Errorf(http.StatusNotFound, "no list with id %q", raw)
	}
	if _, ok := s.store.Get(state.ListsKey, id); !ok {
		return 0, apierr.Errorf(http.StatusNotFound, "no list with id %d", id)
	}
	return id, nil
}

// createImport is step 1.
func (s *importsAPI) createImport(w http.ResponseWriter, r *http.Request) *apierr.Error {
	listID, err := s.importListID(r)
	if err != nil {
		return err
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	delimiter, err := delimiterField(body)
	if err != nil {
		return err
	}
	enc, err := enumField(body, "encoding", importEncodings, importEncodingHints)
	if err != nil {
		return err
	}
	typ, err := enumField(body, "type", importTypes, nil)
	if err != nil {
		return err
	}
	identity, given := defaultIdentityColumn, ""
	if raw, ok := body["identityColumn"]; ok && raw != nil {
		v, isString := raw.(string)
		if !isString || strings.TrimSpace(v) == "" {
			return apierr.FieldError("identityColumn", "identityColumn must be the name of a column of the file, e.g. \"email\"; leave it out to identify contacts by an originalId column")
		}
		identity, given = strings.TrimSpace(v), strings.TrimSpace(v)
	}
	imp := &listImport{id: s.store.AllocID(), listID: listID, delimiter: delimiter, encoding: enc, typ: typ,
		identity: identity, identityGiven: given, created: s.now()}
	s.imports.mu.Lock()
	s.imports.byID[imp.id] = imp
	s.imports.mu.Unlock()
	s.writeJSON(w, http.StatusCreated, map[string]string{"id": strconv.FormatInt(imp.id, 10)})
	return nil
}

// importView is an import as GET .../lists/{listId}/imports shows it: ids
// as strings (as step 1 answers them), the request fields as the service
// holds them (delimiter as its decimal code; identityColumn null when the
// request left it out), and batchId null until the file was uploaded.
type importView struct {
	ID             string  `json:"id"`
	ListID         string  `json:"listId"`
	Delimiter      string  `json:"delimiter"`
	Encoding       string  `json:"encoding"`
	Type           string  `json:"type"`
	IdentityColumn *string `json:"identityColumn"`
	DateCreated    string  `json:"dateCreated"`
	BatchID        *string `json:"batchId"`
}

func (imp *listImport) view() importView {
	v := importView{
		ID: strconv.FormatInt(imp.id, 10), ListID: strconv.FormatInt(imp.listID, 10),
		Delimiter: strconv.Itoa(int(imp.delimiter)), Encoding: imp.encoding, Type: imp.typ,
		DateCreated: imp.created,
	}
	if imp.identityGiven != "" {
		id := imp.identityGiven
		v.IdentityColumn = &id
	}
	if imp.batchID != 0 {
		b := strconv.FormatInt(imp.batchID, 10)
		v.BatchID = &b
	}
	return v
}

// listImports answers the list's imports in ascending id order (the order
// they were created), paged like every collection.
func (s *importsAPI) listImports(w http.ResponseWriter, r *http.Request) *apierr.Error {
	if err := s.refuseListing(r); err != nil {
		return err
	}
	listID, err := s.importListID(r)
	if err != nil {
		return err
	}
	page, pageSize, err := s.pageParams(r)
	if err != nil {
		return err
	}
	s.imports.mu.Lock()
	var all []*listImport
	for _, imp := range s.imports.byID {
		if imp.listID == listID {
			all = append(all, imp)
		}
	}
	slices.SortFunc(all, func(a, b *listImport) int { return cmp.Compare(a.id, b.id) })
	views := []importView{}
	if from := pageOffset(page, pageSize); from < len(all) {
		for _, imp := range all[from:min(len(all), from+pageSize)] {
			views = append(views, imp.view())
		}
	}
	s.imports.mu.Unlock()
	s.setTotal(w, len(all))
	s.writeJSON(w, http.StatusOK, views)
	return nil
}

// delimiterField reads the mandatory delimiter: the decimal ASCII code of
// the column delimiter, as a string. Codes that cannot delimit CSV columns
// (NUL, line breaks, the double quote) are refused.
func delimiterField(body map[string]any) (rune, *apierr.Error) {
	const usage = "delimiter must be the decimal ASCII code of the column delimiter, as a string: \"44\" for a comma, \"59\" for a semicolon, \"9\" for a tab"
	raw, ok := body["delimiter"]
	if !ok || raw == nil {
		return 0, apierr.FieldError("delimiter", "delimiter is mandatory; %s", strings.TrimPrefix(usage, "delimiter "))
	}
	v, isString := raw.(string)
	if !isString {
		return 0, apierr.FieldError("delimiter", "%s; got a %T", usage, raw)
	}
	code, err := strconv.Atoi(v)
	if err != nil || code < 1 || code > 127 {
		return 0, apierr.FieldError("delimiter", "%s; got %q", usage, v)
	}
	switch code {
	case '\n', '\r', '"':
		return 0, apierr.FieldError("delimiter", "delimiter %q (%q) cannot separate columns: line breaks end rows and the double quote quotes fields", v, string(rune(code)))
	}
	return rune(code), nil
}

// uploadImport is step 2.
func (s *importsAPI) uploadImport(w http.ResponseWriter, r *http.Request) {
	if !accepts(r, "application/json") {
		s.writeError(w, apierr.Errorf(http.StatusNotAcceptable, "this call answers only in application/json; the Accept header excludes it"))
		return
	}
	imp, err := s.claimImport(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	batchID := int64(0)
	defer func() { s.releaseImport(imp, batchID) }()

	if mt, _, perr := mime.ParseMediaType(r.Header.Get("Content-Type")); perr != nil || mt != "text/csv" {
		s.writeError(w, apierr.Errorf(http.StatusUnsupportedMediaType, "the import file must be sent with Content-Type: text/csv; got %q", r.Header.Get("Content-Type")))
		return
	}
	job, err := s.parseImport(r.Body, imp)
	if err != nil {
		s.writeError(w, err)
		return
	}
	b := s.batchesAPI.startBatch(batchTypeImport, job)
	batchID = b.id
	s.log.Info("import started", "import", imp.id, "list", imp.listID, "type", imp.typ, "batch", b.id, "rows", job.total())
	w.Header().Set("Location", s.batchesAPI.batchPath(b.id))
	s.writeJSON(w, http.StatusAccepted, map[string]string{"batchId": strconv.FormatInt(b.id, 10)})
}

// claimImport finds the import of the path and marks it as being uploaded,
// so that two uploads of one import cannot both run.
func (s *importsAPI) claimImport(r *http.Request) (*listImport, *apierr.Error) {
	listID, err := s.importListID(r)
	if err != nil {
		return nil, err
	}
	raw := r.PathValue("id")
	id, ok := parseID(raw)
	s.imports.mu.Lock()
	defer s.imports.mu.Unlock()
	imp := s.imports.byID[id]
	if !ok || imp == nil || imp.listID != listID {
		return nil, apierr.Errorf(http.StatusNotFound, "no import with id %q in list %d; create one with POST .../lists/%d/imports", raw, listID, listID)
	}
	switch {
	case imp.batchID != 0:
		return nil, apierr.Errorf(http.StatusConflict, "import %d was already uploaded (batch %d); create a new import to upload another file", id, imp.batchID)
	case imp.uploading:
		return nil, apierr.Errorf(http.StatusConflict, "import %d is being uploaded by another request", id)
	}
	imp.uploading = true
	return imp, nil
}

// releaseImport ends an upload: a successful one records its batch; a
// refused one leaves the import free to be uploaded again.
func (s *importsAPI) releaseImport(imp *listImport, batchID int64) {
	s.imports.mu.Lock()
	defer s.imports.mu.Unlock()
	imp.uploading = false
	imp.batchID = batchID
}

// decodeImport returns a reader of body's text as UTF-8, by the import's
// encoding. A UTF-8 byte order mark is dropped; UTF-16 follows its byte
// order mark and is little-endian without one. Bytes that are not valid
// UTF-8 make the UTF8 reader fail with encoding.ErrInvalidUTF8; ISO-8859-1
// and ANSI (Windows-1252) decode every byte.
func decodeImport(body io.Reader, enc string) io.Reader {
	switch enc {
	case "UTF16":
		return transform.NewReader(body, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder())
	case "ISO-8859-1":
		return transform.NewReader(body, charmap.ISO8859_1.NewDecoder())
	case "ANSI":
		return transform.NewReader(body, charmap.Windows1252.NewDecoder())
	default:
		br := bufio.NewReaderSize(body, 64<<10)
		if bom, err := br.Peek(3); err == nil && string(bom) == "\xef\xbb\xbf" {
			_, _ = br.Discard(3)
		}
		return transform.NewReader(br, encoding.UTF8Validator)
	}
}

// parseImport reads the file row by row into an import job. Only a file
// that cannot be read at all is an error (400); bad rows are kept as such
// and counted when the batch handles them.
func (s *importsAPI) parseImport(body io.Reader, imp *listImport) (*importJob, *apierr.Error) {
	cr := csv.NewReader(decodeImport(body, imp.encoding))
	cr.Comma = imp.delimiter
	cr.FieldsPerRecord = -1 // a row with the wrong number of fields is a bad row, not a bad file
	cr.ReuseRecord = true

	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, apierr.Errorf(http.StatusBadRequest, "the import file is empty; its first row must name the columns")
	}
	if err != nil {
		return nil, fileError(err, 1, imp.encoding)
	}
	header = slices.Clone(header)
	job, aerr := s.newImportJob(imp, header)
	if aerr != nil {
		return nil, aerr
	}
	fields := make([]string, 0, len(job.columns))
	for line := 2; ; line++ {
		record, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fileError(err, line, imp.encoding)
		}
		if len(record) != len(header) {
			noun := "fields"
			if len(record) == 1 {
				noun = "field"
			}
			job.rows.appendBad(fmt.Sprintf("%d %s where the header has %d", len(record), noun, len(header)))
			continue
		}
		if strings.TrimSpace(record[job.identityIdx]) == "" {
			job.rows.appendBad(fmt.Sprintf("the identity column %q is empty", header[job.identityIdx]))
			continue
		}
		fields = fields[:0]
		fields = append(fields, strings.TrimSpace(record[job.identityIdx]))
		for _, c := range job.columns {
			fields = append(fields, record[c])
		}
		job.rows.append(fields)
	}
	return job, nil
}

// fileError explains why the file cannot be read, with its row.
func fileError(err error, row int, enc string) *apierr.Error {
	var pe *csv.ParseError
	switch {
	case errors.Is(err, encoding.ErrInvalidUTF8):
		return apierr.Errorf(http.StatusBadRequest, "the import file is not valid UTF-8 at row %d; if it was saved by an older Windows program, create the import with encoding ANSI or ISO-8859-1", row)
	case errors.As(err, &pe):
		return apierr.Errorf(http.StatusBadRequest, "the import file cannot be read as CSV: row %d (line %d, column %d): %v; quote fields that contain the delimiter, quotes or line breaks", row, pe.StartLine, pe.Column, pe.Err)
	default:
		return apierr.Errorf(http.StatusBadRequest, "reading the import file at row %d (the %s text is malformed or the upload broke off): %v", row, enc, err)
	}
}

// newImportJob maps the header onto the identity column and the attribute
// columns.
func (s *importsAPI) newImportJob(imp *listImport, header []string) (*importJob, *apierr.Error) {
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	seen := map[string]bool{}
	for _, h := range header {
		if h == "" {
			return nil, apierr.Errorf(http.StatusBadRequest, "the import file's first row has an empty column name; it must name every column")
		}
		if seen[h] {
			return nil, apierr.Errorf(http.StatusBadRequest, "the import file names column %q twice", h)
		}
		seen[h] = true
	}
	job := &importJob{s: s, listID: imp.listID, importID: imp.id, typ: imp.typ, identityIdx: slices.Index(header, imp.identity)}
	job.events = s.contactsAPI.newContactEventBatch(imp.listID, map[string]any{"source": "import", "importId": strconv.FormatInt(imp.id, 10), "importType": imp.typ})
	if job.identityIdx < 0 {
		msg := fmt.Sprintf("the import file has no column %q to identify contacts by (its columns: %s)", imp.identity, strings.Join(header, ", "))
		if imp.identity == defaultIdentityColumn {
			return nil, apierr.Errorf(http.StatusBadRequest, "%s; add an originalId column, or name the identifying column with identityColumn", msg)
		}
		return nil, apierr.FieldError("identityColumn", "%s", msg)
	}
	if imp.typ == "UNSUBSCRIBE" {
		return job, nil // only the identity matters
	}
	st := s.store
	st.RLock()
	defer st.RUnlock()
	columnOf := map[int64]string{} // attribute id -> the column that named it
	for i, h := range header {
		id, ok := st.ResolvePropertyLocked(h)
		switch {
		case ok && columnOf[id] != "":
			// As a contact body naming one attribute twice: which value
			// would win is not shown, so neither does.
			return nil, apierr.Errorf(http.StatusBadRequest, "columns %q and %q of the import file name the same contact attribute (id %d); give it once", columnOf[id], h, id)
		case ok:
			columnOf[id] = h
			job.columns = append(job.columns, i)
			job.attrKeys = append(job.attrKeys, strconv.FormatInt(id, 10))
		case i == job.identityIdx:
			// An identity column need not be an attribute.
		default:
			names := st.PropertyNamesLocked()
			known := make([]string, 0, len(names))
			for _, id := range slices.Sorted(maps.Keys(names)) {
				known = append(known, names[id])
			}
			return nil, apierr.Errorf(http.StatusBadRequest, "column %q of the import file is not a contact attribute of the account (attributes: %s); rename the column, or add the attribute with POST .../properties", h, strings.Join(known, ", "))
		}
	}
	return job, nil
}

// importJob is the work of an IMPORT batch.
type importJob struct {
	s           *importsAPI
	listID      int64
	importID    int64
	typ         string
	identityIdx int
	columns     []int    // header positions of the attribute columns
	attrKeys    []string // their attribute ids, as property keys
	rows        importRows
	good        int64              // rows handled that were not bad (REPLACE applies them at the end)
	failedRows  []failedRow        // the first maxFailedRowsShown rows that failed, in order
	events      *contactEventBatch // contact webhook events, bounded (contacts_events.go)
}

func (j *importJob) total() int64 { return j.rows.n }

func (j *importJob) describeRequest(v *batchView) {
	v.ListID, v.ImportID = strconv.FormatInt(j.listID, 10), strconv.FormatInt(j.importID, 10)
	if len(j.failedRows) > 0 {
		v.FailedRows = slices.Clone(j.failedRows)
	}
}

// maxFailedRowsShown bounds the rows a batch names in failedRows; its
// failed field counts them all. Ten are enough to show a client what is
// wrong with a file, and keep a batch of a file with 100,000 bad rows small.
const maxFailedRowsShown = 10

// fail notes that row index i (0 for the first row after the header)
// failed for reason.
func (j *importJob) fail(i int64, reason string) {
	if len(j.failedRows) < maxFailedRowsShown {
		j.failedRows = append(j.failedRows, failedRow{Row: i + 2, Reason: reason})
	}
}

func (j *importJob) eventData() map[string]any {
	return map[string]any{"listId": strconv.FormatInt(j.listID, 10), "importId": strconv.FormatInt(j.importID, 10), "importType": j.typ}
}

// process handles rows [from, to), which always follow the previous call's.
func (j *importJob) process(from, to int64) (affected, failed int64) {
	now := j.s.now()
	for i := from; i < to; i++ {
		fields, reason, ok := j.rows.next()
		if !ok {
			failed++
			j.fail(i, reason)
			continue
		}
		switch j.typ {
		case "ADD":
			before := j.s.store.ContactRef(j.listID, fields[0])
			if _, _, err := j.s.store.UpsertContact(j.listID, j.input(fields, true), now, true); err != nil {
				failed++
				j.fail(i, "contact "+strconv.Quote(fields[0])+": "+err.Message)
			} else {
				affected++
				j.events.note(before, j.s.store.ContactRef(j.listID, fields[0]))
			}
		case "UNSUBSCRIBE":
			before := j.s.store.ContactRef(j.listID, fields[0])
			_, err := j.s.store.SetContactStatus(j.listID, fields[0], state.StatusUnsubscribed, "", now)
			switch {
			case err == nil:
				affected++
				j.events.note(before, j.s.store.ContactRef(j.listID, fields[0]))
			case err.Status == http.StatusNotFound && j.s.listExists(j.listID):
				// No contact has this row's identity: nothing to do.
			default:
				failed++
				j.fail(i, "contact "+strconv.Quote(fields[0])+": "+err.Message)
			}
		case "REPLACE":
			j.good++
		}
	}
	return affected, failed
}

// finish applies a REPLACE, all rows at once, and releases the rows.
func (j *importJob) finish() (affected int64, failure string) {
	defer func() { j.rows = importRows{n: j.rows.n} }()
	defer j.events.end()
	if j.typ != "REPLACE" {
		return 0, ""
	}
	rows := importRows{buf: j.rows.buf, n: j.rows.n}
	ins := make([]state.ContactInput, 0, j.good)
	for range rows.n {
		if fields, _, ok := rows.next(); ok {
			ins = append(ins, j.input(fields, false))
		}
	}
	old := j.s.store.ListHolder(j.listID)
	if err := j.s.store.ReplaceContacts(j.listID, ins, j.s.now()); err != nil {
		return 0, "replacing the contacts of list " + strconv.FormatInt(j.listID, 10) + ": " + err.Message
	}
	j.events.noteListChange(old, j.s.store.ListHolder(j.listID))
	return int64(len(ins)), ""
}

// input is the contact of one row: identity first, then the attribute
// values. Merging (ADD) skips empty cells, so they change nothing.
func (j *importJob) input(fields []string, skipEmpty bool) state.ContactInput {
	in := state.ContactInput{OriginalID: fields[0], Props: make(map[string]*string, len(j.attrKeys))}
	for i, key := range j.attrKeys {
		v := fields[i+1]
		if v == "" && skipEmpty {
			continue
		}
		in.Props[key] = &v
	}
	return in
}

func (s *importsAPI) listExists(id int64) bool {
	_, ok := s.store.Get(state.ListsKey, id)
	return ok
}

// importRows keeps parsed rows compactly, in order: per row a uvarint of the
// field count plus one, then each field as a uvarint length and its bytes;
// a bad row is a 0 followed by its reason, as a uvarint length and its
// bytes. next reads them back in order.
type importRows struct {
	buf []byte
	n   int64
	pos int
}

func (r *importRows) append(fields []string) {
	r.buf = binary.AppendUvarint(r.buf, uint64(len(fields))+1)
	for _, f := range fields {
		r.buf = binary.AppendUvarint(r.buf, uint64(len(f)))
		r.buf = append(r.buf, f...)
	}
	r.n++
}

func (r *importRows) appendBad(reason string) {
	r.buf = binary.AppendUvarint(r.buf, 0)
	r.buf = binary.AppendUvarint(r.buf, uint64(len(reason)))
	r.buf = append(r.buf, reason...)
	r.n++
}

// next returns the next row's fields, or false and the reason for a bad
// row.
func (r *importRows) next() ([]string, string, bool) {
	count, n := binary.Uvarint(r.buf[r.pos:])
	r.pos += n
	if count == 0 {
		l, n := binary.Uvarint(r.buf[r.pos:])
		r.pos += n
		reason := string(r.buf[r.pos : r.pos+int(l)])
		r.pos += int(l)
		return nil, reason, false
	}
	fields := make([]string, count-1)
	for i := range fields {
		l, n := binary.Uvarint(r.buf[r.pos:])
		r.pos += n
		fields[i] = string(r.buf[r.pos : r.pos+int(l)])
		r.pos += int(l)
	}
	return fields, "", true
}

// importsAPI serves the imports of lists; their work runs as batches and
// changes contacts.
type importsAPI struct {
	*base
	imports     *importRegistry
	batchesAPI  *batchesAPI
	contactsAPI *contactsAPI
}
