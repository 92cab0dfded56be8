package emulator

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
)

func TestValidateWebhookAllowHosts(t *testing.T) {
	for _, h := range []string{"*", "hooks.internal", "receiver", "receiver_1", "Hooks.Example.COM.", "10.0.0.0/8", "fd00::/8", "192.168.1.5", "fd00::5", "[fd00::5]"} {
		if err := ValidateWebhookAllowHosts([]string{h}); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
	for _, tt := range []struct{ host, want string }{
		{"", "want a host name"},
		{" hooks", "want a host name"},
		{"https://hooks.example", "without a scheme"},
		{"hooks.example:8443", "without a port"},
		{"hooks.example/path", "without a port or path"},
		{"a..b", "not a host name"},
		{"*.example.com", "not a host name"},
	} {
		err := ValidateWebhookAllowHosts([]string{"hooks.internal", tt.host})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "allow-hosts") {
			t.Errorf("%q: err = %v, want one naming the allow list and containing %q", tt.host, err, tt.want)
		}
	}
}

// New panics on an invalid entry and Open returns it as an error.
func TestWebhookAllowHostsInvalidOptions(t *testing.T) {
	if _, err := Open(Options{WebhookAllowHosts: []string{"https://x"}}); err == nil || !strings.Contains(err.Error(), `"https://x"`) {
		t.Errorf("Open: err = %v, want one naming the entry", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("New did not panic on an invalid allow-hosts entry")
		}
	}()
	New(Options{WebhookAllowHosts: []string{"x:1"}})
}

// Deliveries go to loopback targets, and to others only when allowed.
func TestWebhookTargetRefusal(t *testing.T) {
	tests := []struct {
		url   string
		allow []string
		// refused is a substring of the reason, or "" when the target is
		// allowed.
		refused string
	}{
		{url: "http://127.0.0.1:9999/h"},
		{url: "http://127.8.9.10/h"},
		{url: "http://[::1]:8080/h"},
		{url: "http://localhost:8080/h"},
		{url: "http://LOCALHOST/h"},
		{url: "https://hooks.example.com/h", refused: `host "hooks.example.com" is not a loopback address, and no other host is allowed (rms-emulator -webhook-allow-hosts`},
		// A name is not loopback because it may resolve there: it is never
		// looked up.
		{url: "https://127.0.0.1.nip.io/h", refused: "not a loopback address"},
		{url: "https://[fd00::5]/h", refused: `host "fd00::5"`},
		{url: "https://hooks.example.com/h", allow: []string{"hooks.example.com"}},
		{url: "https://HOOKS.Example.com./h", allow: []string{"hooks.example.com"}},
		{url: "https://evil.example.com/h", allow: []string{"hooks.example.com", "10.0.0.0/8"}, refused: `nor among the allowed webhook hosts "hooks.example.com,10.0.0.0/8"`},
		{url: "https://10.1.2.3:8443/h", allow: []string{"10.0.0.0/8"}},
		{url: "https://11.1.2.3/h", allow: []string{"10.0.0.0/8"}, refused: "not a loopback address"},
		// Prefixes match addresses, never names.
		{url: "https://receiver/h", allow: []string{"10.0.0.0/8"}, refused: "not a loopback address"},
		{url: "https://receiver/h", allow: []string{"receiver"}},
		{url: "https://[fd00::5]/h", allow: []string{"fd00::5"}},
		{url: "https://[fd00::5]/h", allow: []string{"fd00::/8"}},
		{url: "https://anything.example/h", allow: []string{"*"}},
		{url: "https://203.0.113.9/h", allow: []string{"*"}},
	}
	for _, tt := range tests {
		targets, err := newWebhookTargets(tt.allow)
		if err != nil {
			t.Fatal(err)
		}
		got := targets.refusal(tt.url)
		switch {
		case tt.refused == "" && got != "":
			t.Errorf("%s with %q: refused (%s), want it sent", tt.url, tt.allow, got)
		case tt.refused != "" && !strings.Contains(got, tt.refused):
			t.Errorf("%s with %q: refusal %q, want one containing %q", tt.url, tt.allow, got, tt.refused)
		}
	}
}

// A refused target is never sent to (the receiver sees every request the
// emulator makes, whatever its host), its deliveries are recorded as
// skipped with the reason, and it is logged once per webhook and url, not
// per event.
func TestWebhookRefusedTargetLoggedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, logs := newLoggedServer(Options{WebhookAllowHosts: []string{"allowed.example"}})
		defer s.Close()
		rc := newReceiver()
		rc.attach(s)
		a := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://hooks.example.com/a", "events": []string{"message.sent"}})
		b := mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://198.51.100.7/b", "events": []string{"message.sent"}})
		mustCreate(t, s, "/rest/1000/webhooks", map[string]any{"url": "https://allowed.example/c", "events": []string{"message.sent"}})
		for range 5 {
			s.Emit("message.sent", nil)
		}
		synctest.Wait()
		if n := len(rc.received()); n != 5 {
			t.Errorf("%d deliveries sent, want 5: those to the allowed host only", n)
		}
		skipped := 0
		for _, d := range s.Deliveries() {
			switch strconv.FormatInt(d.WebhookID, 10) {
			case idOf(t, a), idOf(t, b):
				skipped++
				if d.State != DeliverySkipped || d.Attempts != 0 || !strings.Contains(d.Reason, "not a loopback address") {
					t.Errorf("delivery to a refused target: %+v", d)
				}
			default:
				if d.State != DeliveryDelivered {
					t.Errorf("delivery to the allowed host: %+v", d)
				}
			}
		}
		if skipped != 10 {
			t.Errorf("%d skipped deliveries, want 10", skipped)
		}
		refused := func(hook map[string]any, url, host string) string {
			return "webhook deliveries not sent to this target webhook=" + idOf(t, hook) + " url=" + url +
				` reason=host "` + host + `" is not a loopback address, nor among the allowed webhook hosts "allowed.example"`
		}
		first := []string{refused(a, "https://hooks.example.com/a", "hooks.example.com"), refused(b, "https://198.51.100.7/b", "198.51.100.7")}
		wantWarnings(t, logs, "after five events", first...)

		// A new url is a new target: logged once more.
		wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/webhooks/"+idOf(t, a), map[string]any{"url": "https://other.example.com/a"}), http.StatusOK)
		s.Emit("message.sent", nil)
		s.Emit("message.sent", nil)
		synctest.Wait()
		wantWarnings(t, logs, "after a new url", append(first, refused(a, "https://other.example.com/a", "other.example.com"))...)
	})
}

// The dialler applies the rule again: a host neither loopback nor allowed
// is refused before any lookup, and "localhost" must connect to loopback.
func TestWebhookTargetsDial(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	targets, err := newWebhookTargets(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"127.0.0.1", "localhost"} {
		c, err := targets.dialContext(context.Background(), "tcp4", net.JoinHostPort(host, port))
		if err != nil {
			t.Errorf("dial %s: %v", host, err)
			continue
		}
		_ = c.Close()
	}
	// .invalid never resolves: an error about a lookup would mean one was made.
	if _, err := targets.dialContext(context.Background(), "tcp", "hooks.invalid:443"); err == nil || !strings.Contains(err.Error(), "refused: not a loopback or allowed host") {
		t.Errorf("dial hooks.invalid: %v, want a refusal before any lookup", err)
	}

	for addr, ok := range map[string]bool{"127.0.0.1:80": true, "127.9.9.9:80": true, "[::1]:80": true, "[::ffff:127.0.0.1]:80": true, "10.0.0.1:80": false, "[fd00::1]:80": false, "203.0.113.9:443": false} {
		if err := loopbackOnly("tcp", addr, nil); (err == nil) != ok {
			t.Errorf("loopbackOnly(%s) = %v, want allowed %v", addr, err, ok)
		}
	}
}
