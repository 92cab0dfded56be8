package emulator

// The routes of imports: steps 1 and 2 (imports.go tells them) and the listing.

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

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
	imp := s.store.Imports.Create(state.Import{ListID: listID, Delimiter: delimiter, Encoding: enc, Type: typ,
		Identity: identity, IdentityGiven: given, Created: s.now()})
	s.writeJSON(w, http.StatusCreated, map[string]string{"id": strconv.FormatInt(imp.ID, 10)})
	return nil
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
	all := s.store.Imports.OfList(listID)
	views := []importView{}
	if from := pageOffset(page, pageSize); from < len(all) {
		for _, imp := range all[from:min(len(all), from+pageSize)] {
			views = append(views, viewOfImport(imp))
		}
	}
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
	defer func() { s.store.Imports.Release(imp.ID, batchID) }()

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
	batchID = b.ID
	s.log.Info("import started", "import", imp.ID, "list", imp.ListID, "type", imp.Type, "batch", b.ID, "rows", job.Total())
	w.Header().Set("Location", s.batchesAPI.batchPath(b.ID))
	s.writeJSON(w, http.StatusAccepted, map[string]string{"batchId": strconv.FormatInt(b.ID, 10)})
}

// claimImport finds the import of the path and marks it as being uploaded,
// so that two uploads of one import cannot both run.
func (s *importsAPI) claimImport(r *http.Request) (state.Import, *apierr.Error) {
	listID, err := s.importListID(r)
	if err != nil {
		return state.Import{}, err
	}
	raw := r.PathValue("id")
	id, ok := parseID(raw)
	var imp state.Import
	found := false
	if ok {
		imp, found, err = s.store.Imports.Claim(listID, id)
	}
	if !found {
		return state.Import{}, apierr.Errorf(http.StatusNotFound, "no import with id %q in list %d; create one with POST .../lists/%d/imports", raw, listID, listID)
	}
	return imp, err
}

func (s *importsAPI) listExists(id int64) bool {
	_, ok := s.store.Get(state.ListsKey, id)
	return ok
}
