package emulator

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Listener serves one or more accounts on a TCP address, in a goroutine.
type Listener struct {
	// URL is the base_url of the emulated accounts, e.g.
	// "http://127.0.0.1:41234" (without /rest).
	URL string
	// Server is the first (with Listen, the only) account.
	Server *Server
	// Accounts are all the accounts served, Server first.
	Accounts []*Server

	http *http.Server
	done chan error // receives Serve's result once
}

// Listen starts a Server for opts (through Open, so fixtures and a data
// directory apply) on addr (e.g. "127.0.0.1:0" for a free port) and serves it
// in a goroutine until Close or Shutdown.
func Listen(addr string, opts Options) (*Listener, error) {
	return ListenAccounts(addr, opts)
}

// ListenAccounts is Listen for several accounts on one address (see
// Accounts): one Server per Options, opened in order.
func ListenAccounts(addr string, opts ...Options) (*Listener, error) {
	return listen(addr, nil, opts)
}

// ListenTLS is ListenAccounts serving HTTPS with t (see TLS); the
// Listener's URL is then https://.
func ListenTLS(addr string, t TLS, opts ...Options) (*Listener, error) {
	cfg, err := t.config()
	if err != nil {
		return nil, err
	}
	return listen(addr, cfg, opts)
}

func listen(addr string, tlsCfg *tls.Config, opts []Options) (*Listener, error) {
	if len(opts) == 0 {
		return nil, errors.New("emulator: no account to serve")
	}
	servers := make([]*Server, 0, len(opts))
	closeAll := func() {
		for _, s := range servers {
			s.Close()
		}
	}
	for _, o := range opts {
		s, err := Open(o)
		if err != nil {
			closeAll()
			return nil, err
		}
		servers = append(servers, s)
	}
	front, err := NewAccounts(servers...)
	if err != nil {
		closeAll()
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("emulator: listening on %s: %w", addr, err)
	}
	scheme := "http"
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
		scheme = "https"
	}
	first := servers[0]
	var handler http.Handler = front
	if len(servers) == 1 {
		handler = first
	}
	l := &Listener{
		URL:      baseURL(scheme, ln.Addr()),
		Server:   first,
		Accounts: servers,
		http: &http.Server{
			Handler:           handler,
			ReadHeaderTimeout: 10 * time.Second,
			// Connection-level errors go to the first account's logger, not stderr.
			ErrorLog: slog.NewLogLogger(first.log.Handler(), slog.LevelWarn),
		},
		done: make(chan error, 1),
	}
	go func() { l.done <- l.http.Serve(ln) }()
	return l, nil
}

// Close stops serving at once, closing open connections.
func (l *Listener) Close() error {
	err := l.http.Close()
	if cerr := l.closeAccounts(); cerr != nil {
		return cerr
	}
	if err != nil {
		return fmt.Errorf("emulator: closing %s: %w", l.URL, err)
	}
	return l.wait()
}

// Shutdown stops accepting connections and waits, until ctx ends, for
// in-flight requests to finish.
func (l *Listener) Shutdown(ctx context.Context) error {
	err := l.http.Shutdown(ctx)
	if cerr := l.closeAccounts(); cerr != nil {
		return cerr
	}
	if err != nil {
		return fmt.Errorf("emulator: shutting down %s: %w", l.URL, err)
	}
	return l.wait()
}

// closeAccounts closes every account (final data-directory writes
// included) and returns the first error.
func (l *Listener) closeAccounts() error {
	var first error
	for _, s := range l.Accounts {
		if err := s.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// wait collects Serve's result; ErrServerClosed is the normal end.
func (l *Listener) wait() error {
	err, ok := <-l.done
	if !ok {
		return nil // already collected by an earlier Close/Shutdown
	}
	close(l.done)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("emulator: serving %s: %w", l.URL, err)
	}
	return nil
}

// baseURL is the URL clients use to reach addr. An unspecified address
// (0.0.0.0, ::) is not a destination, so the URL names the loopback address,
// which such a listener also serves.
func baseURL(scheme string, addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return scheme + "://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return scheme + "://" + addr.String()
}
