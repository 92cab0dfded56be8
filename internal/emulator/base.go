package emulator

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// base is what the handlers of every domain share: the options, the
// account's state, the mux they register on (and what it learned of the
// routes), where the account's events go, and the hook that brings the data
// directory up to date after a change. Its methods are the shared HTTP
// plumbing (mux.go, respond.go, errors.go, wire_behaviour.go,
// validation.go, wire_errors.go) and the clock; it knows no domain.
type base struct {
	opts  Options
	log   *slog.Logger
	mux   *http.ServeMux
	store *state.Store

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
	// eventSink takes the events the handlers emit (a contact unsubscribed,
	// a batch finished); the Server delivers them to webhooks
	// (webhooks_events.go).
	eventSink
	// onChange is called after every request that may have changed the
	// account; Open sets it to bring the data directory up to date.
	onChange func()
}

// changed notes that the account may have changed, so that the data
// directory, if any, is brought up to date.
func (s *base) changed() {
	if s.onChange != nil {
		s.onChange()
	}
}

// now is the account's clock as the interface writes times: RFC 3339 UTC,
// whole seconds.
func (s *base) now() string {
	return s.opts.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
}

// eventSink takes the account's events: emit sends event, with data, to
// whoever subscribed to it.
type eventSink interface {
	emit(event string, data map[string]any)
}
