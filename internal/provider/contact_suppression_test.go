package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

func TestSuppressedWant(t *testing.T) {
	t.Parallel()
	const S, U = client.StatusSubscribed, client.StatusUnsubscribed
	email, both := contactsync.Channels{Email: true}, contactsync.Channels{Email: true, Mobile: true}
	tests := map[string]struct {
		want  client.SubscriptionStatus
		held  contactsync.Channels
		allow bool
		out   client.SubscriptionStatus
	}{
		"nothing held":                     {want: client.SubscriptionStatus{Status: S}, out: client.SubscriptionStatus{Status: S}},
		"configured SUBSCRIBED held":       {want: client.SubscriptionStatus{Status: S}, held: email, out: client.SubscriptionStatus{Status: U}},
		"unconfigured held":                {held: both, out: client.SubscriptionStatus{Status: U, MobileStatus: U}},
		"allow lets SUBSCRIBED through":    {want: client.SubscriptionStatus{Status: S}, held: both, allow: true, out: client.SubscriptionStatus{Status: S, MobileStatus: U}},
		"allow does not subscribe unasked": {held: email, allow: true, out: client.SubscriptionStatus{Status: U}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := suppressedWant(tc.want, tc.held, tc.allow); got != tc.out {
				t.Errorf("got %+v, want %+v", got, tc.out)
			}
		})
	}
}

func TestSuppressedSend(t *testing.T) {
	t.Parallel()
	const S, U = client.StatusSubscribed, client.StatusUnsubscribed
	configured := contactModel{EmailStatus: types.StringValue(S), MobileStatus: types.StringNull()}
	tests := map[string]struct {
		send, service client.SubscriptionStatus
		held          contactsync.Channels
		allow         bool
		out           client.SubscriptionStatus
	}{
		"subscribed and held: unsubscribed": {service: client.SubscriptionStatus{Status: S, MobileStatus: S}, held: contactsync.Channels{Email: true, Mobile: true}, out: client.SubscriptionStatus{Status: U, MobileStatus: U}},
		"a re-subscription held back":       {send: client.SubscriptionStatus{Status: S}, service: client.SubscriptionStatus{Status: U}, held: contactsync.Channels{Email: true}},
		"allow lets it through":             {send: client.SubscriptionStatus{Status: S}, service: client.SubscriptionStatus{Status: U}, held: contactsync.Channels{Email: true}, allow: true, out: client.SubscriptionStatus{Status: S}},
		"not held: unchanged":               {send: client.SubscriptionStatus{Status: S}, service: client.SubscriptionStatus{Status: U}, out: client.SubscriptionStatus{Status: S}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := suppressedSend(tc.send, tc.service, configured, tc.held, tc.allow); got != tc.out {
				t.Errorf("got %+v, want %+v", got, tc.out)
			}
		})
	}
}

func TestOwnOptOuts(t *testing.T) {
	t.Parallel()
	const S, U = client.StatusSubscribed, client.StatusUnsubscribed
	config := contactModel{EmailStatus: types.StringValue(S), MobileStatus: types.StringNull()}
	tests := map[string]struct {
		service  client.SubscriptionStatus
		applied  appliedStatus
		recorded bool
		allow    bool
		want     contactsync.Channels
	}{
		"the recipient left a configured SUBSCRIBED": {service: client.SubscriptionStatus{Status: U}, applied: appliedStatus{Email: S}, recorded: true, want: contactsync.Channels{Email: true}},
		"an imported contact's is kept":              {service: client.SubscriptionStatus{Status: U}, applied: appliedStatus{Unknown: true}, recorded: true, want: contactsync.Channels{Email: true}},
		"a channel left to the service is not one":   {service: client.SubscriptionStatus{Status: S, MobileStatus: U}, applied: appliedStatus{Email: S}, recorded: true},
		"one Terraform applied is not one":           {service: client.SubscriptionStatus{Status: U}, applied: appliedStatus{Email: U}, recorded: true},
		"allow_resubscribe undoes it: none to keep":  {service: client.SubscriptionStatus{Status: U}, applied: appliedStatus{Email: S}, recorded: true, allow: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := ownOptOuts(config, tc.service, tc.applied, tc.recorded, tc.allow); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
