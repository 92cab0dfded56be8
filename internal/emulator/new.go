package emulator

// New puts an account together: the shared plumbing, the handlers of each
// domain on it, and their routes.

import (
	"maps"
	"net/http"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// New returns a Server for opts, with defaults filled (see Options). It
// panics when opts.Fixtures or opts.DataDir is set, which only Open (and
// Listen) apply, so that neither is ever silently ignored, and on an
// invalid opts.WebhookAllowHosts entry, which Open returns as an error.
func New(opts Options) *Server {
	if opts.Fixtures != nil || opts.DataDir != "" {
		panic("emulator: New does not apply Options.Fixtures or Options.DataDir; use Open")
	}
	opts = opts.withDefaults()
	targets, err := newWebhookTargets(opts.WebhookAllowHosts)
	if err != nil {
		panic("emulator: " + err.Error())
	}
	b := &base{
		opts:             opts,
		log:              opts.Logger,
		mux:              http.NewServeMux(),
		store:            state.NewStore(),
		knownCollections: maps.Clone(genericDomains),
		explicitSubs:     map[string]bool{},
		mandatory:        maps.Clone(mandatoryFields),
	}
	hooks := newDeliverer(opts, targets)
	b.eventSink = &webhookEvents{store: b.store, now: b.now, hooks: hooks}
	b.store.PreloadProperties(b.now())
	s := &Server{base: b, hooks: hooks, counter: newRequestCounter(), served: &requestLog{}, tokens: newTokenIssuer(opts)}
	if opts.Faults.enabled() {
		s.faults = newFaultInjector(opts.Faults)
	}
	s.batchesAPI = &batchesAPI{base: b}
	s.contactsAPI = &contactsAPI{base: b}
	s.importsAPI = &importsAPI{base: b, batchesAPI: s.batchesAPI, contactsAPI: s.contactsAPI}
	s.exportsAPI = &exportsAPI{base: b, batchesAPI: s.batchesAPI}
	s.webhooksAPI = &webhooksAPI{base: b}
	s.triggersAPI = &triggersAPI{base: b}
	s.genericAPI = &genericAPI{base: b, contactsAPI: s.contactsAPI}
	s.docsAPI = &docsAPI{base: b}
	s.tokensAPI = &tokensAPI{base: b, tokens: s.tokens}
	s.consoleAPI = &consoleAPI{base: b, served: s.served, authorized: s.consoleAuthorized}
	s.batchesAPI.restorers = map[string]state.WorkRestorer{
		batchTypeImport: s.importsAPI.importWorkFromRecord,
		batchTypeStatExport: func(rec state.BatchRecord, _ int64) (state.Work, error) {
			return exportWorkFromRecord(rec)
		},
	}
	s.dataDir = state.NewDataDir(b.store, opts.CustomerID, b.now, s.snapshotParts, opts.Logger)
	s.registerRoutes()
	return s
}
