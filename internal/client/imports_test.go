package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestDelimiterCode(t *testing.T) {
	for in, want := range map[string]string{",": "44", ";": "59", "\t": "9", "|": "124", " ": "32"} {
		if got, err := DelimiterCode(in); err != nil || got != want {
			t.Errorf("DelimiterCode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, wantErr := range map[string]string{
		"":     "exactly one character",
		"ab":   `exactly one character, such as ",", ";" or "\t"; got "ab"`,
		"é":    "must be an ASCII character",
		"\n":   "cannot delimit columns",
		`"`:    "cannot delimit columns",
		"\x00": "must be an ASCII character",
	} {
		_, err := DelimiterCode(in)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("DelimiterCode(%q) = %v, want an error containing %q", in, err, wantErr)
		}
	}
}

// The three steps against the emulator, the file streamed from disk.
func TestImportAgainstEmulator(t *testing.T) {
	c, s := newEmulatorClient(t, emulator.Options{})
	ctx := context.Background()
	list, err := c.Lists.Create(ctx, ListInput{Name: "Customers"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "contacts.tsv")
	if err := os.WriteFile(path, []byte("email\tfirstname\nasa@example.com\tÅsa\nzoe@example.com\tZoë\nbroken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _ := DelimiterCode("\t")
	importID, err := c.Imports.Create(ctx, list.ID.String(), ImportRequest{Delimiter: code, Encoding: "UTF8", Type: "ADD", IdentityColumn: "email"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	batchID, err := c.Imports.Upload(ctx, list.ID.String(), importID.String(), f)
	if err != nil {
		t.Fatalf("Imports.Upload: %v", err)
	}
	b, err := c.Batches.Wait(ctx, batchID.String(), PollSchedule{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Type != BatchTypeImport || b.Total != 3 || b.Affected != 2 || b.Failed != 1 {
		t.Errorf("batch = %+v, want 3 rows, 2 affected, 1 failed", b)
	}
	contact, err := c.Contacts.Get(ctx, list.ID.String(), "asa@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if contact.Properties["firstname"] != "Åsa" {
		t.Errorf("contact = %+v", contact)
	}
	// A second upload of one import is a conflict.
	if _, err := c.Imports.Upload(ctx, list.ID.String(), importID.String(), strings.NewReader("email\nx\n")); !errors.Is(err, ErrConflict) {
		t.Errorf("second upload: %v, want a conflict", err)
	}
	// Validation errors name their field.
	_, err = c.Imports.Create(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF-8", Type: "ADD"})
	if apiErr, ok := AsAPIError(err); !ok || apiErr.Field != "encoding" || !strings.Contains(err.Error(), "did you mean UTF8?") {
		t.Errorf("bad encoding: %v", err)
	}
	if got := s.Requests().ByRoute["POST /rest/{customerid}/lists/{listId}/recipients/{id}"]; got != 2 {
		t.Errorf("%d uploads reached the emulator, want 2", got)
	}
}

// The upload carries Content-Type: text/csv and the file's length, and a
// retry (429) sends the whole file again from its start.
func TestUploadImportHeadersAndRetry(t *testing.T) {
	const file = "originalId\na\nb\n"
	var calls counter
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.inc()
		body, _ := io.ReadAll(r.Body)
		if string(body) != file {
			t.Errorf("attempt %d received %q", n, body)
		}
		if ct := r.Header.Get("Content-Type"); ct != "text/csv" {
			t.Errorf("Content-Type = %q", ct)
		}
		if r.ContentLength != int64(len(file)) {
			t.Errorf("Content-Length = %d, want %d", r.ContentLength, len(file))
		}
		if r.URL.Path != "/rest/1000/lists/5/recipients/7" {
			t.Errorf("path = %s", r.URL.Path)
		}
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			writeError(w, http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "slow down", "")
			return
		}
		writeJSON(w, http.StatusAccepted, `{"batchId":"12"}`)
	}))
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	id, err := c.Imports.Upload(context.Background(), "5", "7", f)
	if err != nil || id != "12" || calls.get() != 2 {
		t.Errorf("Imports.Upload = %q, %v after %d calls", id, err, calls.get())
	}
}

// A reader without a known size is sent chunked, still streamed.
func TestWithLength(t *testing.T) {
	if _, ok := withLength(strings.NewReader("abc")).(sizedReadSeeker); !ok {
		t.Error("strings.Reader: size not known")
	}
	if got := withLength(bytes.NewReader([]byte("abcd"))).(sizedReadSeeker).Len(); got != 4 {
		t.Errorf("bytes.Reader: Len = %d", got)
	}
	type plain struct{ io.ReadSeeker }
	if _, ok := withLength(plain{strings.NewReader("x")}).(sizedReadSeeker); ok {
		t.Error("a reader of unknown size got a length")
	}
}
