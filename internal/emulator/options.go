package emulator

import (
	"log/slog"
	"maps"
	"time"
)

// Options configure a Server. The zero value is usable: New fills defaults.
type Options struct {
	// CustomerID is the one account this emulator serves; default 1000.
	CustomerID int64
	// Username and Password are the Basic credentials of that account;
	// defaults "rms" and "rms-password".
	Username string
	Password string
	// Retired maps a path below /rest/{customerid}/ (e.g. "campaigns" or
	// "campaigns/5") to the reason the service gives. That path and every path
	// under it answer 410 GONE on every method, with the reason as message.
	Retired map[string]string
	// Logger receives one Info record per request and Error records for
	// failures the client cannot see; nil discards.
	Logger *slog.Logger
	// Faults injects errors, dropped connections and latency; see
	// FaultOptions. The zero value injects nothing.
	Faults FaultOptions
	// Now is the clock for dateCreated/dateModified; nil means time.Now.
	Now func() time.Time
	// WebhookRetryWait is the wait before the second attempt of a webhook
	// delivery; it doubles for each further attempt (capped at a minute).
	// Default 1s.
	WebhookRetryWait time.Duration
	// WebhookMaxAttempts bounds the attempts of one delivery; default 5.
	WebhookMaxAttempts int

	// Fixtures preload a new account (fixtures.go; rms-emulator -fixtures).
	// Applied by Open and Listen, not when DataDir already holds a snapshot.
	Fixtures *Fixtures
	// DataDir, when set, keeps the account across restarts: Open restores
	// it from DataDir/state.json and the state is written back atomically
	// after changes and on Close (persist.go; rms-emulator -data-dir). One
	// emulator at a time may use a data directory.
	DataDir string
	// SnapshotDelay is how long after a change the data directory is
	// written, so that a burst of changes is written once; default 200ms.
	SnapshotDelay time.Duration
}

// Defaults applied by New when the corresponding option is zero.
const (
	DefaultCustomerID = 1000
	DefaultUsername   = "rms"
	DefaultPassword   = "rms-password"

	DefaultWebhookRetryWait   = time.Second
	DefaultWebhookMaxAttempts = 5
)

// withDefaults returns a copy of o with zero fields filled. The Retired map is
// copied so that a caller mutating its map later cannot race with requests.
func (o Options) withDefaults() Options {
	if o.CustomerID == 0 {
		o.CustomerID = DefaultCustomerID
	}
	if o.Username == "" {
		o.Username = DefaultUsername
	}
	if o.Password == "" {
		o.Password = DefaultPassword
	}
	o.Retired = maps.Clone(o.Retired)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.WebhookRetryWait <= 0 {
		o.WebhookRetryWait = DefaultWebhookRetryWait
	}
	if o.WebhookMaxAttempts <= 0 {
		o.WebhookMaxAttempts = DefaultWebhookMaxAttempts
	}
	return o
}
