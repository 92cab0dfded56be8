package state

// The imports' part of a snapshot ("imports"): every import made by step 1,
// in id order, with the request as the service holds it. An upload in
// progress at the save is not recorded: the import is kept free to be
// uploaded again. What is kept of an import's batch is the batches' part.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// importsSnapshot is the "imports" part as it is written.
type importsSnapshot struct {
	Imports []importRecord `json:"imports"`
}

type importRecord struct {
	ID        int64  `json:"id"`
	ListID    int64  `json:"listId"`
	Delimiter int    `json:"delimiter"` // decimal code
	Encoding  string `json:"encoding"`
	Type      string `json:"type"`
	// IdentityColumn is as the request gave it; null when it was left out.
	IdentityColumn *string `json:"identityColumn"`
	DateCreated    string  `json:"dateCreated"`
	BatchID        int64   `json:"batchId,omitempty"` // 0 until uploaded
}

// Save returns the "imports" part, to be written as JSON.
func (is *Imports) Save() (any, error) {
	all := is.All()
	snap := importsSnapshot{Imports: make([]importRecord, 0, len(all))}
	for _, imp := range all {
		rec := importRecord{ID: imp.ID, ListID: imp.ListID, Delimiter: int(imp.Delimiter), Encoding: imp.Encoding,
			Type: imp.Type, DateCreated: imp.Created, BatchID: imp.BatchID}
		if imp.IdentityGiven != "" {
			given := imp.IdentityGiven
			rec.IdentityColumn = &given
		}
		snap.Imports = append(snap.Imports, rec)
	}
	return snap, nil
}

// Restore replaces the account's imports with the part's, after checking
// what the state knows of them (ids unique, ascending and within the
// account's counter, a list id, a time, an identity column that is not
// blank), the request with checkRequest, which the handlers give as step 1
// checks one, and an uploaded import's batch with checkBatch (the batches'
// part is restored first). An import whose request left identityColumn out
// identifies contacts by defaultIdentity.
func (is *Imports) Restore(raw json.RawMessage, defaultIdentity string, checkRequest, checkBatch func(Import) error) error {
	var snap importsSnapshot
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields() // a typo in a hand-edited file is refused, not ignored
	if err := dec.Decode(&snap); err != nil {
		return err
	}
	nextID := is.st.LastID()
	imps := make([]Import, 0, len(snap.Imports))
	var prev int64
	for i, rec := range snap.Imports {
		where := fmt.Sprintf("imports[%d] (id %d)", i, rec.ID)
		if rec.ID <= 0 || rec.ID > nextID {
			return fmt.Errorf("%s: id is outside 1..nextId of the store (%d)", where, nextID)
		}
		if rec.ID <= prev {
			return fmt.Errorf("%s: id is repeated or not in ascending order", where)
		}
		prev = rec.ID
		if rec.ListID <= 0 {
			return fmt.Errorf("%s: listId %d is not a list id", where, rec.ListID)
		}
		imp := Import{ID: rec.ID, ListID: rec.ListID, Delimiter: rune(rec.Delimiter), Encoding: rec.Encoding,
			Type: rec.Type, Identity: defaultIdentity, Created: rec.DateCreated, BatchID: rec.BatchID}
		if err := checkRequest(imp); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if _, err := time.Parse(time.RFC3339, rec.DateCreated); err != nil {
			return fmt.Errorf("%s: dateCreated %q is not an RFC 3339 time", where, rec.DateCreated)
		}
		if rec.IdentityColumn != nil {
			v := strings.TrimSpace(*rec.IdentityColumn)
			if v == "" {
				return fmt.Errorf("%s: identityColumn is blank; null when the request left it out", where)
			}
			imp.Identity, imp.IdentityGiven = v, v
		}
		if rec.BatchID != 0 {
			if err := checkBatch(imp); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
		imps = append(imps, imp)
	}
	is.Replace(imps)
	return nil
}
