package provider

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

func TestAllowedOver(t *testing.T) {
	t.Parallel()
	const S, U = client.StatusSubscribed, client.StatusUnsubscribed
	both := contactsync.Channels{Email: true, Mobile: true}
	tests := map[string]struct {
		held  contactsync.Channels
		allow bool
		want  client.SubscriptionStatus
		out   contactsync.Channels
	}{
		"no allowance":                     {held: both, want: client.SubscriptionStatus{Status: S, MobileStatus: S}},
		"nothing held":                     {allow: true, want: client.SubscriptionStatus{Status: S}},
		"only the channels wanted":         {held: both, allow: true, want: client.SubscriptionStatus{Status: S}, out: contactsync.Channels{Email: true}},
		"an UNSUBSCRIBED stays suppressed": {held: both, allow: true, want: client.SubscriptionStatus{Status: U, MobileStatus: S}, out: contactsync.Channels{Mobile: true}},
		"both wanted and held":             {held: both, allow: true, want: client.SubscriptionStatus{Status: S, MobileStatus: S}, out: both},
		"held on one channel, both wanted": {held: contactsync.Channels{Mobile: true}, allow: true, want: client.SubscriptionStatus{Status: S, MobileStatus: S}, out: contactsync.Channels{Mobile: true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := allowedOver(tc.held, tc.allow, tc.want); got != tc.out {
				t.Errorf("got %+v, want %+v", got, tc.out)
			}
		})
	}
}

func TestConsentedSettled(t *testing.T) {
	t.Parallel()
	const S, U, P = client.StatusSubscribed, client.StatusUnsubscribed, "PENDING"
	both := consentedChannels{Email: true, Mobile: true}
	tests := map[string]struct {
		in    consentedChannels
		shown client.SubscriptionStatus
		out   consentedChannels
	}{
		"still subscribed":          {in: both, shown: client.SubscriptionStatus{Status: S, MobileStatus: S}, out: both},
		"opted out of e-mail again": {in: both, shown: client.SubscriptionStatus{Status: U, MobileStatus: S}, out: consentedChannels{Mobile: true}},
		"no statuses shown":         {in: both, out: both},
		"a state of the service's":  {in: consentedChannels{Email: true}, shown: client.SubscriptionStatus{Status: P}, out: consentedChannels{Email: true}},
		"nothing consented":         {shown: client.SubscriptionStatus{Status: U, MobileStatus: U}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := tc.in.settled(tc.shown); got != tc.out {
				t.Errorf("got %+v, want %+v", got, tc.out)
			}
		})
	}
}
