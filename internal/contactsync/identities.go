package contactsync

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// ReadIdentities reads the identity column of an import file as the
// service reads it: a row with another number of fields than the header,
// or an empty identity, is a bad row the service skips. The guardrail
// counts from it what an UNSUBSCRIBE or REPLACE import will do. opts must
// carry the import's own defaults (the delimiter and encoding of an
// import differ from a source file's); an empty identity is originalId.
func ReadIdentities(r io.Reader, opts FileOptions) (map[string]bool, error) {
	delim, encoding, identity := opts.Delimiter, opts.Encoding, opts.IdentityColumn
	if identity == "" {
		identity = "originalId"
	}
	cr := csv.NewReader(decodedReader(r, encoding))
	cr.Comma, _ = utf8.DecodeRuneInString(delim)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("its header row cannot be read: %w", err)
	}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	idx := slices.Index(header, identity)
	if idx < 0 {
		return nil, fmt.Errorf("its header row has no identity column %q under the delimiter %q", identity, delim)
	}
	width := len(header)
	ids := map[string]bool{}
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return ids, nil
		}
		if err != nil {
			return nil, fmt.Errorf("row %d cannot be read: %w", row, err)
		}
		if len(rec) != width {
			continue
		}
		if id := strings.TrimSpace(rec[idx]); id != "" {
			ids[id] = true
		}
	}
}
