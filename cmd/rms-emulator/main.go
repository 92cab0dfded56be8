// Command rms-emulator runs the in-memory emulator of the service on a
// loopback address, for demos and for users' own CI:
//
//	rms-emulator -addr 127.0.0.1:0 -port-file /tmp/rms.url \
//	  -fixtures fixtures.json -data-dir .rms-state
//
// Batches (imports, statistics exports) finish at once unless the -batch-*
// flags give them a pace, e.g. -batch-pending 2s -batch-min-duration 5s
// -batch-rows-per-second 1000 to watch them move PENDING -> IN_PROGRESS ->
// FINISHED. -wire PROFILES (or -wire all) answers in the shapes another
// service could have chosen where the interface shows nothing; -h lists them.
// /console shows, read-only, what each account holds (-console-password opens
// it to accounts reached only by token). -token adds a bearer token,
// -oauth2-client ID:SECRET an OAuth 2.0 client
// that POST /oauth2/token issues tokens to (living -token-ttl); -tls-cert
// and -tls-key serve HTTPS, and
// -client-ca then requires client certificates signed by that authority.
// Webhook deliveries go to loopback receivers only, unless
// -webhook-allow-hosts names others; -webhook-deliveries-off sends none.
//
// It prints the base URL and the provider block to use, and runs until
// SIGINT or SIGTERM. The guide "Running the emulator in your own CI"
// (docs/guides/emulator-in-ci.md) documents every flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// version is set by the release build through -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop() // os.Exit skips deferred calls
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		_, _ = fmt.Fprintln(os.Stderr, "rms-emulator:", err)
		os.Exit(1)
	}
}

// shutdownGrace bounds how long in-flight requests may take after a signal.
const shutdownGrace = 5 * time.Second

// run is main without the process: it serves until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runReady(ctx, args, stdout, stderr, func() {})
}

// runReady is run that calls ready once the emulator serves and its banner
// and port file are written. It is for tests, which wait on ready rather
// than poll for the port file: a file's appearance sends no signal.
func runReady(ctx context.Context, args []string, stdout, stderr io.Writer, ready func()) error {
	fs := flag.NewFlagSet("rms-emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		addr        = fs.String("addr", "127.0.0.1:8080", "`host:port` to listen on; port 0 picks a free port")
		allowRemote = fs.Bool("allow-remote", false, "allow a non-loopback -addr; credentials then cross the network, so serve HTTPS (-tls-cert, -tls-key) and replace the well-known -password (or use -token)")
		customerID  = fs.Int64("customer-id", emulator.DefaultCustomerID, "the account's customer id")
		username    = fs.String("username", emulator.DefaultUsername, "Basic auth user name")
		password    = fs.String("password", emulator.DefaultPassword, "Basic auth password")
		token       = fs.String("token", "", "also accept this static bearer `token` (Authorization: Bearer TOKEN)")
		consolePass = fs.String("console-password", "", "also open the console at /console to HTTP Basic with any user name and this `password` (for accounts reached only by token or OAuth 2.0, which a browser cannot send)")
		tlsCert     = fs.String("tls-cert", "", "serve HTTPS with this PEM certificate `file` (chain, leaf first); needs -tls-key")
		tlsKey      = fs.String("tls-key", "", "the PEM private key `file` of -tls-cert")
		clientCA    = fs.String("client-ca", "", "require a client certificate signed by an authority in this PEM `file` (mutual TLS); needs -tls-cert")
		logRequests = fs.Bool("log-requests", false, "log every request to stderr")
		portFile    = fs.String("port-file", "", "write the base URL to this `file` once listening (removed on exit)")
		fixtures    = fs.String("fixtures", "", "preload a new account from this JSON `file` (lists, contacts, properties, triggers, webhooks, ...)")
		dataDir     = fs.String("data-dir", "", "keep the account in this `directory` across restarts (restored on start, written after changes and on exit)")
		showVersion = fs.Bool("version", false, "print the version and exit")
		retired     = retireFlag{}
		memoryLimit memoryLimitFlag
		accounts    accountFlag
		wire        wireFlag
		faults      = registerFaultFlags(fs)
		webhooks    = registerWebhookFlags(fs)
		oauth2      = registerOAuth2Flags(fs)

		batchPending     = fs.Duration("batch-pending", 0, "how long a new import or export batch stays PENDING, e.g. 2s")
		batchRowsPerSec  = fs.Float64("batch-rows-per-second", 0, "how many rows an IN_PROGRESS batch handles per second; 0 is no limit")
		batchMinDuration = fs.Duration("batch-min-duration", 0, "the least time a batch stays IN_PROGRESS, however small, e.g. 5s")
		resultURLTTL     = fs.Duration("result-url-ttl", emulator.DefaultResultURLTTL, "how long an export's result URL stays valid")
		exportExtraRows  = fs.Int64("export-extra-rows", 0, "synthetic rows added to every statistics export file (for large-file tests)")
	)
	fs.Var(&accounts, "account", "also serve the account `customerid:username:password` (or customerid:token:TOKEN, accepting only that bearer token, or customerid:oauth2:CLIENTID:SECRET, reached through that OAuth 2.0 client's tokens) on the same address, with its own data; repeatable")
	fs.Var(&wire, "wire", "answer with these wire `profiles` (comma-separated, or all): alternatives the service may have chosen where the interface shows nothing; listed below")
	fs.Var(&memoryLimit, "memory-limit", "the soft memory `limit` of the process, as GOMEMLIMIT takes it (2304MiB, 2GiB, off); default 2304MiB, or GOMEMLIMIT when set")
	fs.Usage = usage(fs)
	fs.Var(retired, "retire", "retire a `path=reason` below /rest/{customerid}/ (410 GONE); repeatable")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for name, d := range map[string]time.Duration{"-batch-pending": *batchPending, "-batch-min-duration": *batchMinDuration} {
		if d < 0 {
			return fmt.Errorf("%s must not be negative, got %s", name, d)
		}
	}
	if *resultURLTTL <= 0 {
		return fmt.Errorf("-result-url-ttl must be positive, got %s", *resultURLTTL)
	}
	if *batchRowsPerSec < 0 || *exportExtraRows < 0 {
		return errors.New("-batch-rows-per-second and -export-extra-rows must not be negative")
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		return errors.New("-tls-cert and -tls-key go together: give both to serve HTTPS, or neither")
	}
	if *clientCA != "" && *tlsCert == "" {
		return errors.New("-client-ca needs -tls-cert and -tls-key: client certificates are part of TLS")
	}
	if *showVersion {
		_, err := fmt.Fprintln(stdout, "rms-emulator", version)
		return err
	}
	if !*allowRemote {
		if err := checkLoopback(*addr); err != nil {
			return err
		}
	}

	defer memoryLimit.apply()()

	faultOpts, err := faults.options()
	if err != nil {
		return err
	}
	hooksOff, allowHosts, err := webhooks.options()
	if err != nil {
		return err
	}
	oauth2Clients, tokenTTL, err := oauth2.options()
	if err != nil {
		return err
	}
	further, err := accounts.options()
	if err != nil {
		return err
	}
	var fx *emulator.Fixtures
	if *fixtures != "" {
		if fx, err = emulator.ReadFixturesFile(*fixtures); err != nil {
			return err
		}
	}

	level := slog.LevelWarn
	if *logRequests {
		level = slog.LevelInfo
	}
	first := emulator.Options{
		CustomerID: *customerID,
		Username:   *username,
		Password:   *password,
		Token:      *token,
		Retired:    retired,

		ConsolePassword: *consolePass,
		Faults:          faultOpts,
		Fixtures:        fx,
		DataDir:         *dataDir,
		Wire:            wire.wire,
		Logger:          slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),

		BatchPendingFor:           *batchPending,
		BatchRowsPerSecond:        *batchRowsPerSec,
		BatchMinDuration:          *batchMinDuration,
		ResultURLTTL:              *resultURLTTL,
		StatisticsExportExtraRows: *exportExtraRows,
		WebhookDeliveriesOff:      hooksOff,
		WebhookAllowHosts:         allowHosts,
		OAuth2Clients:             oauth2Clients,
		TokenTTL:                  tokenTTL,
	}
	all := []emulator.Options{first}
	for _, a := range further {
		// Further accounts share the first one's settings but not its data:
		// no fixtures, and a data directory of their own under -data-dir.
		o := first
		o.CustomerID, o.Username, o.Password, o.Token, o.Fixtures = a.CustomerID, a.Username, a.Password, a.Token, nil
		o.OAuth2Clients = a.OAuth2Clients // a client id names one account
		if *dataDir != "" {
			o.DataDir = filepath.Join(*dataDir, "accounts", strconv.FormatInt(a.CustomerID, 10))
			if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
				return fmt.Errorf("creating the data directory of account %d: %w", a.CustomerID, err)
			}
		}
		o.Logger = first.Logger.With("customer", a.CustomerID)
		all = append(all, o)
	}
	var l *emulator.Listener
	if *tlsCert != "" {
		t, terr := emulator.ReadTLSFiles(*tlsCert, *tlsKey, *clientCA)
		if terr != nil {
			return terr
		}
		l, err = emulator.ListenTLS(*addr, t, all...)
	} else {
		l, err = emulator.ListenAccounts(*addr, all...)
	}
	if err != nil {
		return err
	}
	// The banner is best effort: a closed stdout must not stop the emulator.
	banner := fmt.Sprintf("rms-emulator listening on %s\n", l.URL)
	banner += fmt.Sprintf("interactive documentation: %s/mail/swagger (Authorize with the credentials below)\n", l.URL)
	banner += fmt.Sprintf("console: %s/console (%s)\n", l.URL, consoleSignIn(*consolePass != ""))
	if fx != nil || *dataDir != "" {
		banner += fmt.Sprintf("account: %s\n", l.Server.Loaded())
	}
	if !wire.wire.IsZero() {
		banner += fmt.Sprintf("wire profiles: %s\n", wire.wire)
	}
	banner += webhooks.banner()
	if *tlsCert != "" {
		banner += "HTTPS: set ca_bundle_file to the authority that signed -tls-cert\n"
	}
	if *clientCA != "" {
		banner += "client certificates required: set client_certificate_file and client_key_file to a certificate signed by -client-ca\n"
	}
	for _, s := range l.Accounts {
		banner += providerBlock(l.URL, s.Options())
	}
	_, _ = io.WriteString(stdout, banner)
	// The port file comes last: a script that sees it may rely on the banner.
	if *portFile != "" {
		if err := writeFileAtomic(*portFile, l.URL); err != nil {
			_ = l.Close()
			return err
		}
		defer func() { _ = os.Remove(*portFile) }()
	}
	ready()

	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := l.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// consoleSignIn says which credentials open the console.
func consoleSignIn(password bool) string {
	if password {
		return "sign in with an account's user name and password, or any user name and -console-password"
	}
	return "sign in with an account's user name and password"
}

// providerBlock is the provider configuration that reaches one account.
// The provider takes one scheme at a time, so an account with both Basic
// credentials and a token shows the token as a comment, and OAuth 2.0
// clients as comments unless they are the only way in.
func providerBlock(url string, o emulator.Options) string {
	b := fmt.Sprintf("\nprovider \"rms\" {\n  base_url    = %s\n  customer_id = %d\n", hclString(url), o.CustomerID)
	switch {
	case o.Username == "" && o.Token == "":
		// Reached only through an OAuth 2.0 client (-account ID:oauth2:...).
		return b + oauth2Block(url, o, true) + "}\n"
	case o.Username == "":
		b += fmt.Sprintf("  token       = %s\n", hclString(o.Token))
	case o.Token != "":
		b += fmt.Sprintf("  username    = %s\n  password    = %s\n  # or, instead of username and password:\n  # token     = %s\n", hclString(o.Username), hclString(o.Password), hclString(o.Token))
	default:
		b += fmt.Sprintf("  username    = %s\n  password    = %s\n", hclString(o.Username), hclString(o.Password))
	}
	return b + oauth2Block(url, o, false) + "}\n"
}

// checkLoopback refuses addresses reachable from other machines: the
// emulator speaks plain HTTP with credentials printed on the console.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("parsing -addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refusing to listen on %q, which is not a loopback address; pass -allow-remote to do it anyway", addr)
}

// retireFlag collects repeated -retire path=reason flags.
type retireFlag map[string]string

func (f retireFlag) String() string {
	parts := make([]string, 0, len(f))
	for p, r := range f {
		parts = append(parts, p+"="+r)
	}
	return strings.Join(parts, ",")
}

func (f retireFlag) Set(v string) error {
	path, reason, ok := strings.Cut(v, "=")
	path = strings.Trim(path, "/")
	if !ok || path == "" || reason == "" {
		return fmt.Errorf("want path=reason, e.g. campaigns=replaced by flows; got %q", v)
	}
	f[path] = reason
	return nil
}

// writeFileAtomic writes content through a temporary file and a rename, so a
// script polling for the file never reads it half-written.
func writeFileAtomic(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".rms-emulator-*")
	if err != nil {
		return fmt.Errorf("writing port file: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op after a successful rename
	if _, err := tmp.WriteString(content); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing port file %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing port file %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing port file: %w", err)
	}
	return nil
}

// hclString quotes s as an HCL string literal; HCL also interpolates "${"
// and "%{", which must be doubled to stay literal.
func hclString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "${", "$${", "%{", "%%{")
	return `"` + r.Replace(s) + `"`
}
