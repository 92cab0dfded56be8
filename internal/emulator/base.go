package emulator

import (
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// base is what the handlers of every domain share: the options, the
// account's state, the mux they register on (and what it learned of the
// routes), the webhook deliverer, and the hook that brings the data
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
	// hooks delivers webhook events in the background until Close.
	hooks *deliverer
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

// emit delivers event to every active webhook subscribed to it.
func (s *base) emit(event string, data map[string]any) {
	hooks, _, _ := s.store.Page(nil, webhooksKey, 0, int(^uint(0)>>1))
	occurredAt := s.now()
	for _, h := range hooks {
		if active, _ := h["active"].(bool); !active {
			continue
		}
		events, _ := h["events"].([]any)
		if !slices.Contains(events, any(event)) {
			continue
		}
		url, _ := h["url"].(string)
		secret, _ := h["secret"].(string)
		s.hooks.start(h["id"].(int64), url, secret, event, occurredAt, data)
	}
}
