package emulator

// The import registry: the imports step 1 made, and how the listing shows one.

import (
	"strconv"
	"sync"
)

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
