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
// One RWMutex guards all of it (Store's unexported mu, which the domains'
// stores share; Batches alone has its own, as a batch's work changes
// contacts under the account's): the emulator favours obvious correctness
// over throughput. Each exported method is one read (under the read lock)
// or one update of the account; a read copies what it answers (a page's
// pointers), never a whole list, as stored contacts are never modified in
// place. Methods named ...Locked expect the caller to hold the lock
// (within the package, or a check the store runs under it); the others
// take it themselves, and the handlers call only those.
//
// A list of ten million contacts fits in about 1.7 GB: a contact is 64
// bytes and one string of its properties (which its originalId shares when
// it is one of them), and the list finds it by originalId and e-mail
// address through tables of positions, not maps (position_index.go):
// about 165 bytes per contact of four attributes in all
// (TestContactsHeapPerContact).
package state
