package emulator

// The account's events on their way to the webhooks subscribed to them: the
// handlers emit through base's eventSink, and webhookEvents finds the
// subscribers and hands each delivery to the deliverer
// (webhooks_delivery.go).

import (
	"slices"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// webhookEvents delivers the account's events to its webhooks.
type webhookEvents struct {
	store *state.Store
	now   func() string
	hooks *deliverer
}

// emit delivers event to every active webhook subscribed to it.
func (e *webhookEvents) emit(event string, data map[string]any) {
	hooks, _, _ := e.store.Page(nil, webhooksKey, 0, int(^uint(0)>>1))
	occurredAt := e.now()
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
		e.hooks.start(h["id"].(int64), url, secret, event, occurredAt, data)
	}
}
