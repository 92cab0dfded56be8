package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// webhookFlags are the command-line form of the emulator's webhook delivery
// options: users' fixtures name real receivers, which a CI job must not
// reach unless it says so.
type webhookFlags struct {
	off        *bool
	allowHosts *string
}

func registerWebhookFlags(fs *flag.FlagSet) *webhookFlags {
	return &webhookFlags{
		off:        fs.Bool("webhook-deliveries-off", false, "send no webhook deliveries: events are still recorded, as skipped, and nothing is dialled"),
		allowHosts: fs.String("webhook-allow-hosts", "", "comma-separated `hosts` besides loopback that webhook deliveries may go to: host names, IP addresses, CIDR prefixes, or * for every host"),
	}
}

// options returns Options.WebhookDeliveriesOff and WebhookAllowHosts.
func (f *webhookFlags) options() (off bool, allowHosts []string, err error) {
	allowHosts = splitList(*f.allowHosts)
	if *f.off && len(allowHosts) > 0 {
		return false, nil, errors.New("-webhook-allow-hosts has no effect with -webhook-deliveries-off: give one or the other")
	}
	if err := emulator.ValidateWebhookAllowHosts(allowHosts); err != nil {
		return false, nil, fmt.Errorf("-webhook-allow-hosts: %w", err)
	}
	return *f.off, allowHosts, nil
}

// banner is the start-up line about deliveries, when they differ from the
// default (loopback only).
func (f *webhookFlags) banner() string {
	switch {
	case *f.off:
		return "webhook deliveries: off (events are recorded, nothing is sent)\n"
	case *f.allowHosts != "":
		return fmt.Sprintf("webhook deliveries: to loopback addresses and %s\n", strings.Join(splitList(*f.allowHosts), ","))
	}
	return ""
}

// writeWebhookRules explains, after the flags in -h, where deliveries go
// and how their failures are logged.
func writeWebhookRules(out io.Writer) {
	_, _ = fmt.Fprint(out, `
Webhook deliveries go only to loopback targets (127.0.0.0/8, ::1, localhost)
unless -webhook-allow-hosts names the host; a delivery to any other host is
never dialled, its name never looked up, and it is logged once per webhook.
-webhook-deliveries-off sends none. A target whose deliveries fail is logged
when it starts failing, then summed up at most once a minute (failed
attempts, deliveries given up), and when it recovers; retries keep their
schedule (1s, 2s, 4s, 8s: five attempts).
`)
}
