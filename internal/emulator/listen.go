package emulator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Listener is a Server listening on a TCP address, serving in a goroutine.
type Listener struct {
	// URL is the base_url of the emulated account, e.g.
	// "http://127.0.0.1:41234" (without /rest).
	URL    string
	Server *Server

	http *http.Server
	done chan error // receives Serve's result once
}

// Listen starts a Server for opts (through Open, so fixtures and a data
// directory apply) on addr (e.g. "127.0.0.1:0" for a free port) and serves it
// in a goroutine until Close or Shutdown.
func Listen(addr string, opts Options) (*Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("emulator: listening on %s: %w", addr, err)
	}
	srv, err := Open(opts)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	l := &Listener{
		URL:    baseURL(ln.Addr()),
		Server: srv,
		http: &http.Server{
			Handler:           srv,
			ReadHeaderTimeout: 10 * time.Second,
			// Connection-level errors go to the emulator's logger, not stderr.
			ErrorLog: slog.NewLogLogger(srv.log.Handler(), slog.LevelWarn),
		},
		done: make(chan error, 1),
	}
	go func() { l.done <- l.http.Serve(ln) }()
	return l, nil
}

// Close stops serving at once, closing open connections.
func (l *Listener) Close() error {
	err := l.http.Close()
	if cerr := l.Server.close(); cerr != nil {
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
	if cerr := l.Server.close(); cerr != nil {
		return cerr
	}
	if err != nil {
		return fmt.Errorf("emulator: shutting down %s: %w", l.URL, err)
	}
	return l.wait()
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
func baseURL(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return "http://" + addr.String()
}
