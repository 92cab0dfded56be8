package state

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// The imports of lists that step 1 made (POST .../lists/{listId}/imports),
// with where their upload stands. The file's rows are not here: they belong
// to the batch that applies them.

// Import is an import created by step 1, as the service holds it.
type Import struct {
	ID        int64
	ListID    int64
	Delimiter rune
	Encoding  string
	Type      string
	// Identity is the column that identifies contacts; IdentityGiven is
	// identityColumn as the request gave it ("" when left out), shown by the
	// listing so a client can match its request.
	Identity      string
	IdentityGiven string
	Created       string // dateCreated, RFC 3339
	Uploading     bool   // step 2 is reading the body
	BatchID       int64  // set once step 2 succeeded
}

// Imports is the account's imports: a store of its own over the account's
// one lock (Store), reached as Store.Imports.
type Imports struct {
	st   *Store
	byID map[int64]*Import
}

// Create stores imp as a new import with the account's next id, and returns
// it as stored.
func (is *Imports) Create(imp Import) Import {
	is.st.mu.Lock()
	defer is.st.mu.Unlock()
	is.st.nextID++
	imp.ID = is.st.nextID
	is.byID[imp.ID] = &imp
	return imp
}

// OfList returns the imports of a list in ascending id order (the order
// they were created).
func (is *Imports) OfList(listID int64) []Import {
	is.st.mu.RLock()
	defer is.st.mu.RUnlock()
	var out []Import
	for _, imp := range is.byID {
		if imp.ListID == listID {
			out = append(out, *imp)
		}
	}
	slices.SortFunc(out, func(a, b Import) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Claim marks the import id of a list as being uploaded, so that two uploads
// of one import cannot both run. found is false when the list has no such
// import; an import already uploaded, or being uploaded, is a 409.
func (is *Imports) Claim(listID, id int64) (imp Import, found bool, err *apierr.Error) {
	is.st.mu.Lock()
	defer is.st.mu.Unlock()
	p := is.byID[id]
	if p == nil || p.ListID != listID {
		return Import{}, false, nil
	}
	switch {
	case p.BatchID != 0:
		return Import{}, true, apierr.Errorf(http.StatusConflict, "import %d was already uploaded (batch %d); create a new import to upload another file", id, p.BatchID)
	case p.Uploading:
		return Import{}, true, apierr.Errorf(http.StatusConflict, "import %d is being uploaded by another request", id)
	}
	p.Uploading = true
	return *p, true, nil
}

// Release ends an upload Claim began: a successful one records its batch
// (batchID), a refused one (0) leaves the import free to be uploaded again.
func (is *Imports) Release(id, batchID int64) {
	is.st.mu.Lock()
	defer is.st.mu.Unlock()
	if p := is.byID[id]; p != nil {
		p.Uploading = false
		p.BatchID = batchID
	}
}

// All returns every import in ascending id order.
func (is *Imports) All() []Import {
	is.st.mu.RLock()
	defer is.st.mu.RUnlock()
	out := make([]Import, 0, len(is.byID))
	for _, imp := range is.byID {
		out = append(out, *imp)
	}
	slices.SortFunc(out, func(a, b Import) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Replace makes imps the account's imports (a restore).
func (is *Imports) Replace(imps []Import) {
	byID := make(map[int64]*Import, len(imps))
	for _, imp := range imps {
		byID[imp.ID] = &imp
	}
	is.st.mu.Lock()
	defer is.st.mu.Unlock()
	is.byID = byID
}
