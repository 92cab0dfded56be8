package emulator

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Where webhook deliveries may go. A webhook's url is accepted as the
// service accepts it (https anywhere, http to loopback); what the emulator
// sends is narrower, because fixtures and configurations under test name
// real receivers that a CI job must not reach: by default only loopback
// targets (an IP address in 127.0.0.0/8 or ::1, or "localhost"), plus the
// hosts of Options.WebhookAllowHosts. A refused target is never dialled,
// and its name is never looked up.

// WebhookAllowAnyHost is the Options.WebhookAllowHosts entry that lets
// deliveries go to every host.
const WebhookAllowAnyHost = "*"

// webhookTargets decides which delivery URLs the emulator sends to.
type webhookTargets struct {
	any      bool
	names    map[string]bool // lower case, without a trailing dot
	addrs    map[netip.Addr]bool
	prefixes []netip.Prefix
	// allowed is the allow list as given, for messages.
	allowed string
}

// ValidateWebhookAllowHosts checks the entries of Options.WebhookAllowHosts:
// each is a host name, an IP address, a CIDR prefix or "*"; never a URL, a
// port or an empty string.
func ValidateWebhookAllowHosts(hosts []string) error {
	_, err := newWebhookTargets(hosts)
	return err
}

func newWebhookTargets(hosts []string) (*webhookTargets, error) {
	t := &webhookTargets{names: map[string]bool{}, addrs: map[netip.Addr]bool{}, allowed: strings.Join(hosts, ",")}
	for _, h := range hosts {
		if err := t.add(h); err != nil {
			return nil, fmt.Errorf("webhook allow-hosts entry %q: %w", h, err)
		}
	}
	return t, nil
}

func (t *webhookTargets) add(entry string) error {
	switch {
	case entry == WebhookAllowAnyHost:
		t.any = true
		return nil
	case entry == "" || strings.TrimSpace(entry) != entry:
		return errors.New("want a host name, an IP address, a CIDR prefix such as 10.0.0.0/8, or * for every host")
	case strings.Contains(entry, "://"):
		return errors.New("give the host only, without a scheme (hooks.internal, not https://hooks.internal)")
	}
	if p, err := netip.ParsePrefix(entry); err == nil {
		t.prefixes = append(t.prefixes, p.Masked())
		return nil
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(entry, "["), "]")); err == nil {
		t.addrs[a.Unmap()] = true
		return nil
	}
	name := strings.ToLower(strings.TrimSuffix(entry, "."))
	if !validHostName(name) {
		return errors.New("not a host name, an IP address or a CIDR prefix (give the host only, without a port or path)")
	}
	t.names[name] = true
	return nil
}

// validHostName accepts DNS-like names: labels of letters, digits, '-' and
// '_' (container names use it), separated by dots.
func validHostName(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, r := range label {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '_' {
				return false
			}
		}
	}
	return true
}

// refusal says why a delivery to rawURL is not sent, or "" when it may be.
func (t *webhookTargets) refusal(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return fmt.Sprintf("url %q has no host", rawURL)
	}
	host := u.Hostname()
	if isLoopbackHost(host) || t.allows(host) {
		return ""
	}
	if t.allowed == "" {
		return fmt.Sprintf("host %q is not a loopback address, and no other host is allowed (rms-emulator -webhook-allow-hosts, Options.WebhookAllowHosts)", host)
	}
	return fmt.Sprintf("host %q is not a loopback address, nor among the allowed webhook hosts %q", host, t.allowed)
}

// allows reports whether host (a URL's host, without port or brackets) is
// on the allow list. Prefixes match addresses only: matching a name would
// mean looking it up first.
func (t *webhookTargets) allows(host string) bool {
	if t.any {
		return true
	}
	if a, err := netip.ParseAddr(host); err == nil {
		a = a.Unmap()
		if t.addrs[a] {
			return true
		}
		for _, p := range t.prefixes {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return t.names[strings.ToLower(strings.TrimSuffix(host, "."))]
}

// dialContext dials a delivery's connection, enforcing the rule again at
// the socket: a host neither loopback nor allowed is refused before any
// lookup, and a loopback name ("localhost") must really connect to a
// loopback address, whatever the resolver says.
func (t *webhookTargets) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("webhook delivery to %q: %w", addr, err)
	}
	d := &net.Dialer{Timeout: deliveryAttemptTimeout}
	switch {
	case t.allows(host):
	case isLoopbackHost(host):
		d.Control = loopbackOnly
	default:
		return nil, fmt.Errorf("webhook delivery to %q refused: not a loopback or allowed host", host)
	}
	return d.DialContext(ctx, network, addr)
}

// loopbackOnly is a net.Dialer Control that refuses connections to
// addresses outside loopback.
func loopbackOnly(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook delivery to %q: %w", address, err)
	}
	if !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("webhook delivery refused: %s is not a loopback address", ap.Addr())
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// deliveryAttemptTimeout bounds one POST to a receiver.
const deliveryAttemptTimeout = 10 * time.Second
