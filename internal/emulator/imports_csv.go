package emulator

// Reading an uploaded file: its encoding, its CSV rows, and its header mapped
// onto the identity column and the contact attributes.

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

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
func (s *importsAPI) parseImport(body io.Reader, imp state.Import) (*importJob, *apierr.Error) {
	cr := csv.NewReader(decodeImport(body, imp.Encoding))
	cr.Comma = imp.Delimiter
	cr.FieldsPerRecord = -1 // a row with the wrong number of fields is a bad row, not a bad file
	cr.ReuseRecord = true

	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, apierr.Errorf(http.StatusBadRequest, "the import file is empty; its first row must name the columns")
	}
	if err != nil {
		return nil, fileError(err, 1, imp.Encoding)
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
			return nil, fileError(err, line, imp.Encoding)
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
func (s *importsAPI) newImportJob(imp state.Import, header []string) (*importJob, *apierr.Error) {
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
	job := &importJob{s: s, listID: imp.ListID, importID: imp.ID, typ: imp.Type, identityIdx: slices.Index(header, imp.Identity),
		rows:  importRows{keep: imp.Type == "REPLACE"}, // REPLACE reads its rows again at the end
		cause: &state.Cause{Kind: state.CauseImport, ImportID: imp.ID, ImportType: imp.Type}}
	job.events = s.contactsAPI.newContactEventBatch(imp.ListID, map[string]any{"source": "import", "importId": strconv.FormatInt(imp.ID, 10), "importType": imp.Type})
	if job.identityIdx < 0 {
		msg := fmt.Sprintf("the import file has no column %q to identify contacts by (its columns: %s)", imp.Identity, strings.Join(header, ", "))
		if imp.Identity == defaultIdentityColumn {
			return nil, apierr.Errorf(http.StatusBadRequest, "%s; add an originalId column, or name the identifying column with identityColumn", msg)
		}
		return nil, apierr.FieldError("identityColumn", "%s", msg)
	}
	if imp.Type == "UNSUBSCRIBE" {
		return job, nil // only the identity matters
	}
	ids, names := s.store.ResolveProperties(header)
	columnOf := map[int64]string{} // attribute id -> the column that named it
	for i, h := range header {
		id := ids[i]
		switch {
		case id != 0 && columnOf[id] != "":
			// As a contact body naming one attribute twice: which value
			// would win is not shown, so neither does.
			return nil, apierr.Errorf(http.StatusBadRequest, "columns %q and %q of the import file name the same contact attribute (id %d); give it once", columnOf[id], h, id)
		case id != 0:
			columnOf[id] = h
			job.columns = append(job.columns, i)
			job.attrKeys = append(job.attrKeys, strconv.FormatInt(id, 10))
		case i == job.identityIdx:
			// An identity column need not be an attribute.
		default:
			known := make([]string, 0, len(names))
			for _, id := range slices.Sorted(maps.Keys(names)) {
				known = append(known, names[id])
			}
			return nil, apierr.Errorf(http.StatusBadRequest, "column %q of the import file is not a contact attribute of the account (attributes: %s); rename the column, or add the attribute with POST .../properties", h, strings.Join(known, ", "))
		}
	}
	return job, nil
}
