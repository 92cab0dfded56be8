package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWebhookFlags(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		wantOff   bool
		wantHosts []string
		wantErr   string
	}{
		{name: "defaults"},
		{name: "off", args: []string{"-webhook-deliveries-off"}, wantOff: true},
		{name: "hosts", args: []string{"-webhook-allow-hosts", "receiver, 10.0.0.0/8,hooks.internal,"}, wantHosts: []string{"receiver", "10.0.0.0/8", "hooks.internal"}},
		{name: "any host", args: []string{"-webhook-allow-hosts", "*"}, wantHosts: []string{"*"}},
		{name: "a URL", args: []string{"-webhook-allow-hosts", "https://hooks.internal"}, wantErr: `-webhook-allow-hosts: webhook allow-hosts entry "https://hooks.internal": give the host only, without a scheme`},
		{name: "a port", args: []string{"-webhook-allow-hosts", "receiver:8080"}, wantErr: "without a port"},
		{name: "both", args: []string{"-webhook-deliveries-off", "-webhook-allow-hosts", "receiver"}, wantErr: "-webhook-allow-hosts has no effect with -webhook-deliveries-off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			wf := registerWebhookFlags(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			off, hosts, err := wf.options()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				// run refuses them before serving, too.
				if err := run(context.Background(), tt.args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("run: err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if off != tt.wantOff {
				t.Errorf("off = %v, want %v", off, tt.wantOff)
			}
			if diff := cmp.Diff(tt.wantHosts, hosts); diff != "" {
				t.Errorf("hosts (-want +got):\n%s", diff)
			}
		})
	}
}

// A fixture webhook to a public host gets no delivery: one line in the
// log says so, however many events happen; with deliveries off, none.
func TestRunWebhookTargets(t *testing.T) {
	fixtures := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(fixtures, []byte(`{
  "webhooks": [{ "url": "https://hooks.example.com/rms", "events": ["message.sent"] }],
  "triggers": [{ "id": 100, "name": "Order confirmation" }]
}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name       string
		args       []string
		banner     string
		wantRefuse int
	}{
		{name: "default", wantRefuse: 1},
		{name: "off", args: []string{"-webhook-deliveries-off"}, banner: "webhook deliveries: off (events are recorded, nothing is sent)\n"},
		{name: "other hosts", args: []string{"-webhook-allow-hosts", "receiver,10.0.0.0/8"}, banner: "webhook deliveries: to loopback addresses and receiver,10.0.0.0/8\n", wantRefuse: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stdout, stderr syncBuffer
			baseURL, done := goRun(ctx, t, filepath.Join(t.TempDir(), "url"), append([]string{"-fixtures", fixtures}, tt.args...), &stdout, &stderr)
			for range 3 {
				// The refusal is decided, and logged, before the answer.
				if status, body := call(t, http.MethodPost, baseURL+"/rest/1000/triggers/100/messages", `{"recipient":{"email":"ada@example.com"}}`); status != http.StatusCreated {
					t.Fatalf("send: %d %s", status, body)
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("run: %v", err)
			}
			if n := strings.Count(stderr.String(), "webhook deliveries not sent to this target"); n != tt.wantRefuse {
				t.Errorf("%d refusal lines, want %d; stderr:\n%s", n, tt.wantRefuse, stderr.String())
			}
			if tt.banner != "" && !strings.Contains(stdout.String(), tt.banner) {
				t.Errorf("banner lacks %q:\n%s", tt.banner, stdout.String())
			}
			if tt.banner == "" && strings.Contains(stdout.String(), "webhook deliveries") {
				t.Errorf("the default banner speaks of webhook deliveries:\n%s", stdout.String())
			}
		})
	}
}

func TestRunHelpExplainsWebhookDeliveries(t *testing.T) {
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, io.Discard, &stderr); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run -h: %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"-webhook-deliveries-off", "-webhook-allow-hosts hosts", "only to loopback targets", "at most once a minute"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, stderr.String())
		}
	}
}
