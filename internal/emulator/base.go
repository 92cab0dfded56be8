package emulator

import (
	"log/slog"
	"net/http"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// base is what the handlers of every domain share: the options, the
// account's state, the mux they register on and the request counter, the
// engines that run in the background (batches, webhook deliveries) and the
// data directory to bring up to date after a change. Its methods are the
// shared HTTP plumbing (mux.go, respond.go, errors.go, paging.go,
// validation.go, the wire profiles); it knows no domain.
type base struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	store   *state.Store
	counter *requestCounter
	batches *batchEngine
	objects *objectStore
	imports *importRegistry
	faults  *faultInjector // nil when no fault is configured

	// routes lists every registered mux pattern ("GET /rest/{customerid}/..."),
	// so a test can check each is documented in the OpenAPI fragments.
	routes []string
	// knownCollections are the segments below /rest/{customerid}/ that some
	// route serves: the generic domains plus the literal first segment of
	// every explicit route.
	knownCollections map[string]bool
	// explicitSubs are "collection/sub" pairs that explicit routes serve (e.g.
	// "lists/contacts"); the generic nested handlers refuse them so that a
	// method the explicit routes lack is 405, not a generic write.
	explicitSubs map[string]bool
	// mandatory is this server's copy of mandatoryFields.
	mandatory map[string][]string
	// hooks delivers webhook events in the background until Close.
	hooks *deliverer
	// persist writes the account to Options.DataDir; nil without one.
	persist *persister
	// loaded says where the initial state came from (Open).
	loaded string
}
