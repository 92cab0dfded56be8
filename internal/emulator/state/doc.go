// Package state is what one emulated account holds: its collections of
// entities (one id counter for the whole account) and the attributes
// contact properties resolve through, in Store; and each other domain in a
// store of its own that Store holds and the handlers reach through its
// field: the transactional messages sent (Messages), the contacts of each
// list with the changes since they were last saved (Contacts), the imports
// of lists (Imports), the URLs of export results (ResultLinks), and the
// batches that run imports and exports (Batches). Each contact remembers
// its last status changes and what made them (contact_history.go), and
// each list keeps counts by status and an e-mail index as it changes
// (contacts_index.go), which the console reads (contacts_overview.go).
// It also keeps the data directory (DataDir, Persister): a snapshot whose
// store part is written and read in a compact form (Snapshot,
// ContactRecord, Builder), the batches' and imports' parts
// (batches_snapshot.go, imports_snapshot.go) beside the parts other areas
// hand it, and a journal of changes after it.
//
// It sits below the HTTP handlers of internal/emulator, which call its API
// and never its internals: a rule it refuses (a contact that exists, a list
// that does not) comes back as an *apierr.Error the handler answers as is.
// It knows no HTTP request, wire profile or fault; of the emulator it
// imports only internal/emulator/apierr.
//
// One RWMutex guards all of it (Store embeds it, the domains' stores share
// it; Batches alone has its own, as a batch's work changes contacts under
// the account's): the emulator favours obvious correctness over throughput. Methods
// named ...Locked expect the caller to hold it (within the package, or a
// check the store runs under it); the others take it themselves, and the
// handlers call only those.
package state
