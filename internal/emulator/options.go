package emulator

import (
	"log/slog"
	"maps"
	"slices"
	"time"
)

// Options configure a Server. The zero value is usable: New fills defaults.
type Options struct {
	// CustomerID is the one account this emulator serves; default 1000.
	CustomerID int64
	// Username and Password are the Basic credentials of that account;
	// defaults "rms" and "rms-password", unless Token is set and both are
	// empty: such an account accepts its token only, as behind a gateway.
	Username string
	Password string
	// Token, when set, is a static bearer token the account also accepts
	// (`Authorization: Bearer <token>`); a wrong or missing one is 401 like
	// wrong Basic credentials.
	Token string
	// OAuth2Clients are the account's OAuth 2.0 clients, client id to
	// secret: each may ask POST /oauth2/token for a bearer token
	// (client credentials; oauth2_token.go) that the account accepts
	// until it expires. With clients and neither Token nor Username nor
	// Password, Basic stays off, as for a token-only account.
	OAuth2Clients map[string]string
	// ConsolePassword, when set, opens the account's console (/console,
	// console.go) to HTTP Basic credentials with any user name and this
	// password, besides the account's own credentials: a browser cannot
	// send a bearer token, so an account reached only by token or OAuth
	// 2.0 is looked at this way.
	ConsolePassword string
	// TokenTTL is how long an issued token stays valid; default
	// DefaultTokenTTL. The answer's expires_in is in whole seconds.
	TokenTTL time.Duration
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
	// Now is the clock for dateCreated/dateModified and for the progress of
	// batches; nil means time.Now. Tests pass a fake clock to move batches
	// along without sleeping.
	Now func() time.Time

	// Batches (imports and statistics exports) move PENDING -> IN_PROGRESS ->
	// FINISHED as Now advances. Progress is computed from the clock whenever
	// the account is touched, so no goroutine runs between requests. The zero
	// values make every batch finish at once, which keeps tests fast; demos
	// pass realistic values (see the -batch-* flags of rms-emulator).

	// BatchPendingFor is how long a new batch stays PENDING.
	BatchPendingFor time.Duration
	// BatchRowsPerSecond is how fast an IN_PROGRESS batch handles rows; zero
	// means no limit.
	BatchRowsPerSecond float64
	// BatchMinDuration is the least time a batch stays IN_PROGRESS, however
	// few its rows, so that small demo batches can be watched.
	BatchMinDuration time.Duration
	// BatchError injects faults: when it returns a non-empty message for a
	// new batch's type ("IMPORT", "STAT_EXPORT"), that batch ends FINISHED
	// with the message in its error field and no result. Nil injects none.
	BatchError func(batchType string) string

	// ResultURLTTL is how long a statistics export's result URL stays valid;
	// default 15 minutes. Each call of .../result/url mints a new URL.
	ResultURLTTL time.Duration
	// StatisticsExportExtraRows adds this many synthetic rows to every
	// statistics export file after the rows derived from the account's data,
	// to make large files for benchmarks. They are generated as the file is
	// served, so the emulator's memory does not grow with them.
	StatisticsExportExtraRows int64
	// WebhookRetryWait is the wait before the second attempt of a webhook
	// delivery; it doubles for each further attempt (capped at a minute).
	// Default 1s.
	WebhookRetryWait time.Duration
	// WebhookMaxAttempts bounds the attempts of one delivery; default 5.
	WebhookMaxAttempts int
	// WebhookDeliveriesOff sends no webhook delivery at all: each event a
	// webhook subscribes to is still recorded (Server.Deliveries), in state
	// "skipped" with the reason, and nothing is dialled.
	WebhookDeliveriesOff bool
	// WebhookAllowHosts are the hosts, besides loopback, that webhook
	// deliveries may go to. By default a delivery goes only to an address
	// in 127.0.0.0/8 or ::1, or to "localhost" (which must then connect to
	// a loopback address); one to any other host is recorded as "skipped",
	// logged once per webhook and url, and never dialled nor looked up. An
	// entry is a host name (matched exactly, in any case), an IP address, a
	// CIDR prefix (matching URLs that hold an address in it, never names),
	// or "*" for every host. New panics on an invalid entry and Open returns
	// an error; ValidateWebhookAllowHosts checks them first. The webhooks'
	// API accepts the same urls either way: only what is sent changes.
	WebhookAllowHosts []string

	// Fixtures preload a new account (fixtures.go; rms-emulator -fixtures).
	// Applied by Open and Listen, not when DataDir already holds a snapshot.
	Fixtures *Fixtures
	// DataDir, when set, keeps the account across restarts: Open restores
	// it from DataDir/state.json and DataDir/journal.jsonl, and what changed
	// is saved after changes and on Close (snapshot.go, state/persist.go;
	// rms-emulator -data-dir). One emulator at a time may use a data
	// directory.
	DataDir string
	// Wire switches open dimensions of the answers to alternatives a
	// service could have chosen (wire.go; rms-emulator -wire). The zero
	// value answers as the conventions guide says.
	Wire Wire

	// SnapshotDelay is how long after a change the data directory is
	// written, so that a burst of changes is written once; default 200ms.
	SnapshotDelay time.Duration

	// journalAbove is the number of contacts above which the data
	// directory journals changes instead of rewriting its snapshot
	// (state/persist.go); 0 is the default, negative always journals. Tests
	// set it to journal small accounts.
	journalAbove int
	// compactAbove is the least journal size, in bytes, that is compacted
	// into a new snapshot; 0 is the default (16 MiB). Tests set it low.
	compactAbove int64
}

// Defaults applied by New when the corresponding option is zero.
const (
	DefaultCustomerID = 1000
	DefaultUsername   = "rms"
	DefaultPassword   = "rms-password"
	// DefaultResultURLTTL is how long a result URL stays valid by default.
	DefaultResultURLTTL = 15 * time.Minute

	DefaultWebhookRetryWait   = time.Second
	DefaultWebhookMaxAttempts = 5
)

// withDefaults returns a copy of o with zero fields filled. The Retired map is
// copied so that a caller mutating its map later cannot race with requests.
func (o Options) withDefaults() Options {
	if o.CustomerID == 0 {
		o.CustomerID = DefaultCustomerID
	}
	// A token-only account keeps Basic off: defaults would open a second,
	// well-known door to an account the test means to reach by token.
	if (o.Token == "" && len(o.OAuth2Clients) == 0) || o.Username != "" || o.Password != "" {
		if o.Username == "" {
			o.Username = DefaultUsername
		}
		if o.Password == "" {
			o.Password = DefaultPassword
		}
	}
	o.Retired = maps.Clone(o.Retired)
	o.OAuth2Clients = maps.Clone(o.OAuth2Clients)
	if o.TokenTTL <= 0 {
		o.TokenTTL = DefaultTokenTTL
	}
	o.WebhookAllowHosts = slices.Clone(o.WebhookAllowHosts)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ResultURLTTL <= 0 {
		o.ResultURLTTL = DefaultResultURLTTL
	}
	o.BatchPendingFor = max(o.BatchPendingFor, 0)
	o.BatchMinDuration = max(o.BatchMinDuration, 0)
	o.BatchRowsPerSecond = max(o.BatchRowsPerSecond, 0)
	o.StatisticsExportExtraRows = max(o.StatisticsExportExtraRows, 0)
	if o.WebhookRetryWait <= 0 {
		o.WebhookRetryWait = DefaultWebhookRetryWait
	}
	if o.WebhookMaxAttempts <= 0 {
		o.WebhookMaxAttempts = DefaultWebhookMaxAttempts
	}
	return o
}

// DefaultTokenTTL is how long an issued token stays valid when
// Options.TokenTTL is zero: the 20 minutes marketing suites commonly give.
const DefaultTokenTTL = 20 * time.Minute
