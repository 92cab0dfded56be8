package emulator

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

// importsAPI serves the imports of lists; their work runs as batches and
// changes contacts.
type importsAPI struct {
	*base
	batchesAPI  *batchesAPI
	contactsAPI *contactsAPI
}
