// Package state is what one emulated account holds: its collections of
// entities (one id counter for the whole account), the contacts of each
// list with the changes since they were last saved, the attributes contact
// properties resolve through, and the transactional messages sent. It also
// writes and reads the compact form the data directory keeps it in: the
// store's part of a snapshot (Snapshot, ContactRecord, Builder) and the
// records of the journal.
//
// It sits below the HTTP handlers of internal/emulator, which call its API
// and never its internals: a rule it refuses (a contact that exists, a list
// that does not) comes back as an *apierr.Error the handler answers as is.
// It knows no HTTP request, wire profile or fault; of the emulator it
// imports only internal/emulator/apierr.
//
// One RWMutex guards all of it (Store embeds it): the emulator favours
// obvious correctness over throughput. Methods named ...Locked expect the
// caller to hold it; the others take it themselves.
package state
