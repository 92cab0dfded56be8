package emulator

import "github.com/rms-labs/terraform-provider-rms/internal/emulator/state"

// Server is one emulated account. It implements http.Handler; every Server
// holds its own state, so tests run many side by side. It wires the
// handlers of each domain onto what they share (base.go) and answers each
// request through the pipeline of faults, wire profiles and the mux; the
// account's state is the package state.
type Server struct {
	*base
	contactsAPI *contactsAPI
	batchesAPI  *batchesAPI
	importsAPI  *importsAPI
	exportsAPI  *exportsAPI
	webhooksAPI *webhooksAPI
	triggersAPI *triggersAPI
	genericAPI  *genericAPI
	docsAPI     *docsAPI
	tokensAPI   *tokensAPI
	consoleAPI  *consoleAPI

	// hooks delivers webhook events in the background until Close.
	hooks   *deliverer
	counter *requestCounter
	served  *requestLog    // the last requests, for the console
	faults  *faultInjector // nil when no fault is configured
	tokens  *tokenIssuer   // OAuth 2.0 clients and the tokens issued to them
	// persist writes the account to Options.DataDir; nil without one.
	persist *state.Persister
	// dataDir is the account in the form of the data directory.
	dataDir *state.DataDir
	// loaded says where the initial state came from (Open).
	loaded string
}
