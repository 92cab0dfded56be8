package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"
)

// ImportTypes are the import kinds of the interface: ADD adds the file's
// contacts to the list, REPLACE replaces all contacts of the list,
// UNSUBSCRIBE unsubscribes the contacts with a matching row.
var ImportTypes = []string{"ADD", "REPLACE", "UNSUBSCRIBE"}

// ImportEncodings are the file encodings the interface supports; ANSI is
// Windows-1252.
var ImportEncodings = []string{"UTF8", "UTF16", "ISO-8859-1", "ANSI"}

// ImportRequest creates an import (step 1 of 3).
type ImportRequest struct {
	// Delimiter is the decimal ASCII code of the column delimiter, e.g. "44";
	// DelimiterCode converts a character.
	Delimiter string `json:"delimiter"`
	Encoding  string `json:"encoding"`
	Type      string `json:"type"`
	// IdentityColumn names the file column that identifies contacts; empty
	// means the file has an originalId column.
	IdentityColumn string `json:"identityColumn,omitempty"`
}

// DelimiterCode turns a delimiter character ("," or "\t") into the decimal
// ASCII code the interface expects ("44", "9"). It refuses what cannot
// delimit CSV columns: more or less than one character, characters outside
// ASCII, NUL, line breaks and the double quote.
func DelimiterCode(delimiter string) (string, error) {
	r, size := utf8.DecodeRuneInString(delimiter)
	if delimiter == "" || size != len(delimiter) {
		return "", fmt.Errorf("the delimiter must be exactly one character, such as \",\", \";\" or \"\\t\"; got %q", delimiter)
	}
	switch {
	case r == utf8.RuneError || r == 0 || r > 127:
		return "", fmt.Errorf("the delimiter must be an ASCII character, such as \",\", \";\" or \"\\t\"; got %q", delimiter)
	case r == '\n' || r == '\r' || r == '"':
		return "", fmt.Errorf("%q cannot delimit columns: line breaks end rows and the double quote quotes fields", delimiter)
	}
	return strconv.Itoa(int(r)), nil
}

// Import is an import as the service's listing of a list's imports shows
// it (a service convention, not part of the interface): the request it was
// created with and, once its file was uploaded, the batch that applies it.
type Import struct {
	ID        ID     `json:"id"`
	ListID    ID     `json:"listId"`
	Delimiter string `json:"delimiter"`
	Encoding  string `json:"encoding"`
	Type      string `json:"type"`
	// IdentityColumn is as the request gave it; empty when it was left out.
	IdentityColumn string    `json:"identityColumn"`
	DateCreated    Timestamp `json:"dateCreated"`
	// BatchID is empty until the file was uploaded.
	BatchID ID `json:"batchId"`
}

// Matches reports whether the import was created with the request in.
func (imp Import) Matches(in ImportRequest) bool {
	return imp.Delimiter == in.Delimiter && imp.Encoding == in.Encoding && imp.Type == in.Type && imp.IdentityColumn == in.IdentityColumn
}

// List returns the imports of a list in ascending id order; the
// error matches ErrNotFound when the list is unknown.
func (s *ImportService) List(ctx context.Context, listID string) ([]Import, error) {
	all, err := GetAll[Import](ctx, s.c, Path("lists", listID, "imports"), nil)
	if err != nil {
		return nil, fmt.Errorf("reading back the imports of list %s: %w", listID, err)
	}
	return all, nil
}

// Create is step 1: it declares an import into a list and returns
// the import id.
func (s *ImportService) Create(ctx context.Context, listID string, in ImportRequest) (ID, error) {
	a, err := s.c.write(ctx, http.MethodPost, Path("lists", listID, "imports"), in)
	if err != nil {
		return "", fmt.Errorf("creating a %s import into list %s: %w", in.Type, listID, err)
	}
	id := a.startedID("id")
	if id == "" {
		return "", fmt.Errorf("creating a %s import into list %s: %w", in.Type, listID, a.namedNothing())
	}
	return ID(id), nil
}

// Upload is step 2: it sends the file as text/csv and returns the id
// of the batch that applies it (step 3 is Batches.Wait). The file is
// streamed from file as the request is sent, never read into memory; it is
// an io.ReadSeeker (an *os.File, a *strings.Reader) so that a retry can
// rewind it. Uploads are retried only when the service cannot have read
// them (429, or no connection), as for every POST.
func (s *ImportService) Upload(ctx context.Context, listID, importID string, file io.ReadSeeker) (ID, error) {
	resp, err := s.c.send(ctx, request{
		method:      http.MethodPost,
		path:        Path("lists", listID, "recipients", importID),
		body:        withLength(file),
		contentType: "text/csv",
		stream:      true, // no per-attempt time limit: a large file takes long
	})
	if err != nil {
		return "", fmt.Errorf("uploading the file of import %s into list %s: %w", importID, listID, err)
	}
	defer func() { _ = resp.Body.Close() }()
	a := answerOf(resp)
	id := a.startedID("batchId")
	if id == "" {
		// The file was accepted: reading the import back finds its batch.
		return "", fmt.Errorf("uploading the file of import %s into list %s: %w", importID, listID, a.namedNothing())
	}
	return ID(id), nil
}

// sizedReadSeeker tells the retry layer its length, so the upload carries a
// Content-Length instead of being chunked.
type sizedReadSeeker struct {
	io.ReadSeeker
	n int
}

func (s sizedReadSeeker) Len() int { return s.n }

// withLength wraps file with its size when it can tell it (a regular file,
// a strings.Reader or bytes.Reader); else the upload is chunked.
func withLength(file io.ReadSeeker) io.ReadSeeker {
	var size int64 = -1
	switch f := file.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	case interface{ Size() int64 }:
		size = f.Size()
	}
	if size < 0 || int64(int(size)) != size {
		return file
	}
	return sizedReadSeeker{ReadSeeker: file, n: int(size)}
}

// CreateOnce is step 1 of an import; after an unknown outcome it
// reads the list's imports back and adopts the one created since the
// attempt began with the same request and no upload yet.
func (s *ImportService) CreateOnce(ctx context.Context, listID string, in ImportRequest) (ID, error) {
	key := importKey(in)
	found, err := CreateOrAdopt(ctx, s.c, fmt.Sprintf("%s import into list %s", in.Type, listID),
		func(ctx context.Context) (*Import, error) {
			id, err := s.Create(ctx, listID, in)
			return &Import{ID: id}, err
		},
		func(ctx context.Context, since time.Time) (*Import, bool, error) {
			all, err := s.List(ctx, listID)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "import", key, since, func(imp Import) (string, time.Time, string) {
				if imp.BatchID != "" || !imp.Matches(in) {
					return "", imp.DateCreated.Time, imp.ID.String() // uploaded already: not the one just made
				}
				return key, imp.DateCreated.Time, imp.ID.String()
			})
		})
	if err != nil {
		return "", err
	}
	return found.ID, nil
}

func importKey(in ImportRequest) string {
	identity := in.IdentityColumn
	if identity == "" {
		identity = "originalId column"
	}
	return fmt.Sprintf("%s, delimiter %s, %s, identity %s", in.Type, in.Delimiter, in.Encoding, identity)
}

// UploadOnce is step 2 of an import. An import accepts one upload,
// so after an unknown outcome it reads the import back: when it has a batch,
// the upload arrived and that batch is the answer; else the file is sent
// again (rewound). A 409 to a repeated upload means an earlier attempt is
// still being read or was carried out after all: it is read back again
// rather than reported.
func (s *ImportService) UploadOnce(ctx context.Context, listID, importID string, file io.ReadSeeker) (ID, error) {
	uploaded := func(ctx context.Context, _ time.Time) (ID, bool, error) {
		all, err := s.List(ctx, listID)
		if err != nil {
			return "", false, err
		}
		for _, imp := range all {
			if imp.ID.String() == importID {
				return imp.BatchID, imp.BatchID != "", nil
			}
		}
		return "", false, fmt.Errorf("import %s is not among the imports of list %s: %w", importID, listID, ErrNotFound)
	}
	attempts := 0
	return CreateOrAdopt(ctx, s.c, fmt.Sprintf("upload of import %s into list %s", importID, listID),
		func(ctx context.Context) (ID, error) {
			attempts++
			id, err := s.Upload(ctx, listID, importID, file)
			if attempts > 1 && errors.Is(err, ErrConflict) {
				return "", &UncertainError{Method: http.MethodPost, Path: Path("lists", listID, "recipients", importID), StatusCode: http.StatusConflict, Err: err}
			}
			return id, err
		}, uploaded)
}
