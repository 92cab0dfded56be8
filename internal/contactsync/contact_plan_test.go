package contactsync

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func TestPlanContact(t *testing.T) {
	t.Parallel()
	const S, U, P = client.StatusSubscribed, client.StatusUnsubscribed, "PENDING"
	email, mobile, both := Channels{Email: true}, Channels{Mobile: true}, Channels{Email: true, Mobile: true}
	type want struct {
		send      client.SubscriptionStatus
		reasons   [2]Reason
		notices   [2]Notice
		optedOut  Channels
		record    Channels
		consented Channels
	}
	tests := map[string]struct {
		in   ContactInput
		want want
	}{
		// The consent rule (Decide), no suppression list.
		"steady": {
			in: ContactInput{Desired: [2]string{S, S}, Applied: [2]string{S, S}, Shown: [2]string{S, S}},
		},
		"opt-out kept, the other channel's change sent": {
			in:   ContactInput{Desired: [2]string{S, U}, Applied: [2]string{S, S}, Shown: [2]string{U, S}},
			want: want{send: client.SubscriptionStatus{MobileStatus: U}, reasons: [2]Reason{ReasonOptOut, ReasonInput}, notices: [2]Notice{NoticeOptedOut}, optedOut: email},
		},
		"opt-out undone when allowed": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{U, S}, Allow: true},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}},
		},
		"the configuration re-subscribes": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{U, ""}, Shown: [2]string{U, ""}},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}},
		},
		"applied not known (imported): opt-out kept on both": {
			in:   ContactInput{Desired: [2]string{S, S}, Shown: [2]string{U, U}},
			want: want{reasons: [2]Reason{ReasonOptOut, ReasonOptOut}, notices: [2]Notice{NoticeOptedOut, NoticeOptedOut}, optedOut: both},
		},
		"statuses not shown: only a changed status is sent": {
			in:   ContactInput{Desired: [2]string{U, S}, Applied: [2]string{S, S}},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonInput}},
		},
		"unconfigured: never sent": {
			in: ContactInput{Applied: [2]string{S, ""}, Shown: [2]string{U, ""}},
		},
		"a state of the service's own is set again": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{P, ""}},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}},
		},

		// The suppression list on a contact the service holds.
		"subscribed and held: unsubscribed": {
			in: ContactInput{Shown: [2]string{S, S}, SuppressionList: true, Suppressed: both},
			want: want{send: client.SubscriptionStatus{Status: U, MobileStatus: U}, reasons: [2]Reason{ReasonSuppressed, ReasonSuppressed},
				notices: [2]Notice{NoticeSuppressedUnsubscribed, NoticeSuppressedUnsubscribed}},
		},
		"a re-subscription held back": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{U, ""}, Shown: [2]string{U, ""}, SuppressionList: true, Suppressed: email},
			want: want{reasons: [2]Reason{ReasonSuppressed}, notices: [2]Notice{NoticeSuppressedNotSubscribed}},
		},
		"allow lets it through, and it is consented": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{U, ""}, Shown: [2]string{U, ""}, Allow: true, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}, consented: email},
		},
		"not held: unchanged": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{U, ""}, Shown: [2]string{U, ""}, SuppressionList: true},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}},
		},
		"an opt-out on a held channel is suppressed, not kept, and not recorded": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{U, ""}, SuppressionList: true, Suppressed: email},
			want: want{reasons: [2]Reason{ReasonSuppressed}, notices: [2]Notice{NoticeSuppressedNotSubscribed}, optedOut: email},
		},
		"the input's own unsubscription of a held channel is the input's": {
			in: ContactInput{Desired: [2]string{U, ""}, Applied: [2]string{S, ""}, Shown: [2]string{S, ""}, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonInput},
				notices: [2]Notice{NoticeSuppressedUnsubscribed}},
		},
		"held, statuses not shown: unsubscribed on the safe side": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonSuppressed}},
		},
		"held, a state of the service's own: unsubscribed": {
			in:   ContactInput{Shown: [2]string{P, ""}, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonSuppressed}},
		},
		"allow does not lift a channel left to the service": {
			in: ContactInput{Shown: [2]string{S, ""}, Allow: true, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonSuppressed},
				notices: [2]Notice{NoticeSuppressedUnsubscribed}},
		},
		"no allowance: nothing consented": {
			in: ContactInput{Desired: [2]string{S, S}, Applied: [2]string{S, S}, Shown: [2]string{S, S}, SuppressionList: true, Suppressed: both},
			want: want{send: client.SubscriptionStatus{Status: U, MobileStatus: U}, reasons: [2]Reason{ReasonSuppressed, ReasonSuppressed},
				notices: [2]Notice{NoticeSuppressedUnsubscribed, NoticeSuppressedUnsubscribed}},
		},
		"allow, nothing held: nothing consented": {
			in: ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{S, ""}, Allow: true, SuppressionList: true},
		},
		"allow, both wanted and held: both consented": {
			in:   ContactInput{Desired: [2]string{S, S}, Applied: [2]string{S, S}, Shown: [2]string{S, S}, Allow: true, SuppressionList: true, Suppressed: both},
			want: want{consented: both},
		},
		"allow, held on one channel, both wanted: that one consented": {
			in:   ContactInput{Desired: [2]string{S, S}, Applied: [2]string{S, S}, Shown: [2]string{S, S}, Allow: true, SuppressionList: true, Suppressed: mobile},
			want: want{consented: mobile},
		},
		"allow lifts only the channels wanted SUBSCRIBED": {
			in:   ContactInput{Desired: [2]string{U, S}, Applied: [2]string{U, S}, Shown: [2]string{U, S}, Allow: true, SuppressionList: true, Suppressed: both},
			want: want{consented: mobile},
		},

		// Opt-outs to record in the suppression list.
		"the recipient left a configured SUBSCRIBED: recorded": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{U, ""}, SuppressionList: true},
			want: want{reasons: [2]Reason{ReasonOptOut}, notices: [2]Notice{NoticeOptedOut}, optedOut: email, record: email},
		},
		"an imported contact's opt-out is recorded": {
			in:   ContactInput{Desired: [2]string{S, ""}, Shown: [2]string{U, ""}, SuppressionList: true},
			want: want{reasons: [2]Reason{ReasonOptOut}, notices: [2]Notice{NoticeOptedOut}, optedOut: email, record: email},
		},
		"a channel left to the service is not one": {
			in: ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{S, U}, SuppressionList: true},
		},
		"one Terraform applied is not one": {
			in: ContactInput{Desired: [2]string{U, ""}, Applied: [2]string{U, ""}, Shown: [2]string{U, ""}, SuppressionList: true},
		},
		"allow_resubscribe undoes it: none to record": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{U, ""}, Allow: true, SuppressionList: true},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}},
		},
		"no suppression list: nothing recorded": {
			in:   ContactInput{Desired: [2]string{S, ""}, Applied: [2]string{S, ""}, Shown: [2]string{U, ""}},
			want: want{reasons: [2]Reason{ReasonOptOut}, notices: [2]Notice{NoticeOptedOut}, optedOut: email},
		},

		// Consented channels.
		"consented and still subscribed: not held, kept": {
			in:   ContactInput{Desired: [2]string{S, S}, Applied: [2]string{S, S}, Shown: [2]string{S, S}, SuppressionList: true, Suppressed: both, Consented: both},
			want: want{consented: both},
		},
		"consented, opted out of e-mail again: held again there": {
			in: ContactInput{Desired: [2]string{S, S}, Applied: [2]string{S, S}, Shown: [2]string{U, S}, SuppressionList: true, Suppressed: both, Consented: both},
			want: want{reasons: [2]Reason{ReasonSuppressed}, notices: [2]Notice{NoticeSuppressedNotSubscribed}, optedOut: email,
				consented: mobile},
		},
		"consented, no statuses shown: kept": {
			in:   ContactInput{Consented: both},
			want: want{consented: both},
		},
		"nothing consented: nothing kept": {
			in: ContactInput{Shown: [2]string{U, U}},
		},
		"consented, a state of the service's: kept": {
			in:   ContactInput{Shown: [2]string{P, ""}, Consented: email},
			want: want{consented: email},
		},

		// A create, and a take-over of a contact this run released.
		"create: the configured statuses": {
			in:   ContactInput{Create: true, Desired: [2]string{S, U}},
			want: want{send: client.SubscriptionStatus{Status: S, MobileStatus: U}, reasons: [2]Reason{ReasonInput, ReasonInput}},
		},
		"create: configured SUBSCRIBED held": {
			in:   ContactInput{Create: true, Desired: [2]string{S, ""}, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonSuppressed}, notices: [2]Notice{NoticeCreatedUnsubscribed}},
		},
		"create: unconfigured held on both": {
			in: ContactInput{Create: true, SuppressionList: true, Suppressed: both},
			want: want{send: client.SubscriptionStatus{Status: U, MobileStatus: U}, reasons: [2]Reason{ReasonSuppressed, ReasonSuppressed},
				notices: [2]Notice{NoticeCreatedUnsubscribed, NoticeCreatedUnsubscribed}},
		},
		"create: a configured UNSUBSCRIBED held is the input's, and noticed": {
			in:   ContactInput{Create: true, Desired: [2]string{U, ""}, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonInput}, notices: [2]Notice{NoticeCreatedUnsubscribed}},
		},
		"create: allow lets SUBSCRIBED through, consented": {
			in: ContactInput{Create: true, Desired: [2]string{S, ""}, Allow: true, SuppressionList: true, Suppressed: both},
			want: want{send: client.SubscriptionStatus{Status: S, MobileStatus: U}, reasons: [2]Reason{ReasonInput, ReasonSuppressed},
				notices: [2]Notice{NoticeNone, NoticeCreatedUnsubscribed}, consented: email},
		},
		"create: allow does not subscribe unasked": {
			in:   ContactInput{Create: true, Allow: true, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonSuppressed}, notices: [2]Notice{NoticeCreatedUnsubscribed}},
		},
		"take-over: an unconfigured status given back": {
			in:   ContactInput{Create: true, Desired: [2]string{S, ""}, Shown: [2]string{S, U}},
			want: want{send: client.SubscriptionStatus{Status: S, MobileStatus: U}, reasons: [2]Reason{ReasonInput, ReasonReleased}},
		},
		"take-over: the released contact's opt-out kept": {
			in:   ContactInput{Create: true, Desired: [2]string{S, S}, Shown: [2]string{U, S}},
			want: want{send: client.SubscriptionStatus{Status: U, MobileStatus: S}, reasons: [2]Reason{ReasonOptOut, ReasonInput}, optedOut: email},
		},
		"take-over: allow re-subscribes": {
			in:   ContactInput{Create: true, Desired: [2]string{S, ""}, Shown: [2]string{U, ""}, Allow: true},
			want: want{send: client.SubscriptionStatus{Status: S}, reasons: [2]Reason{ReasonInput}},
		},
		"take-over: held, unconfigured, allowed: still unsubscribed": {
			in:   ContactInput{Create: true, Shown: [2]string{S, ""}, Allow: true, SuppressionList: true, Suppressed: email},
			want: want{send: client.SubscriptionStatus{Status: U}, reasons: [2]Reason{ReasonSuppressed}, notices: [2]Notice{NoticeCreatedUnsubscribed}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := PlanContact(tc.in)
			if got := d.Status(); got != tc.want.send {
				t.Errorf("Status = %+v, want %+v", got, tc.want.send)
			}
			for i, c := range d.Channels {
				if c.Reason != tc.want.reasons[i] {
					t.Errorf("channel %d: reason %s, want %s", i, c.Reason, tc.want.reasons[i])
				}
				if c.Notice != tc.want.notices[i] {
					t.Errorf("channel %d: notice %d, want %d", i, c.Notice, tc.want.notices[i])
				}
			}
			if got := d.OptedOut(); got != tc.want.optedOut {
				t.Errorf("OptedOut = %+v, want %+v", got, tc.want.optedOut)
			}
			if got := d.ToRecord(); got != tc.want.record {
				t.Errorf("ToRecord = %+v, want %+v", got, tc.want.record)
			}
			if got := d.Consented(); got != tc.want.consented {
				t.Errorf("Consented = %+v, want %+v", got, tc.want.consented)
			}
		})
	}
}

// TestPlanContactNoticed: the channels of one notice, for a plan's message.
func TestPlanContactNoticed(t *testing.T) {
	t.Parallel()
	d := PlanContact(ContactInput{Create: true, Desired: [2]string{client.StatusSubscribed, ""}, SuppressionList: true, Suppressed: Channels{Email: true, Mobile: true}})
	if got, want := d.Noticed(NoticeCreatedUnsubscribed), (Channels{Email: true, Mobile: true}); got != want {
		t.Errorf("Noticed = %+v, want %+v", got, want)
	}
	if got := d.Noticed(NoticeOptedOut); got.Any() {
		t.Errorf("Noticed(opted out) = %+v, want none", got)
	}
}

// TestHeldRowStatus: a held row is written UNSUBSCRIBED on its suppressed
// channels, nothing on the others.
func TestHeldRowStatus(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		held Channels
		want client.SubscriptionStatus
	}{
		"e-mail": {held: Channels{Email: true}, want: client.SubscriptionStatus{Status: client.StatusUnsubscribed}},
		"mobile": {held: Channels{Mobile: true}, want: client.SubscriptionStatus{MobileStatus: client.StatusUnsubscribed}},
		"both":   {held: Channels{Email: true, Mobile: true}, want: client.SubscriptionStatus{Status: client.StatusUnsubscribed, MobileStatus: client.StatusUnsubscribed}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := (HeldRow{OriginalID: "c", Channels: tc.held}).Status(); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
