package contactsync

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

const sub, unsub = client.StatusSubscribed, client.StatusUnsubscribed

func TestConsentDecision(t *testing.T) {
	const S, U = "SUBSCRIBED", "UNSUBSCRIBED"
	tests := []struct {
		name                      string
		desired, applied, service string
		allow                     bool
		want                      Decision
	}{
		{name: "not configured: never sent", desired: "", applied: S, service: U, want: Decision{}},
		{name: "as desired", desired: S, applied: S, service: S, want: Decision{}},
		{name: "opted out after Terraform subscribed: honoured", desired: S, applied: S, service: U, want: Decision{OptedOut: true}},
		{name: "opted out, applied unknown (imported): honoured", desired: S, applied: "", service: U, want: Decision{OptedOut: true}},
		{name: "opted out, re-subscription allowed", desired: S, applied: S, service: U, allow: true, want: Decision{Send: true}},
		{name: "the configuration asks to re-subscribe", desired: S, applied: U, service: U, want: Decision{Send: true}},
		{name: "unsubscribing is always sent", desired: U, applied: U, service: S, want: Decision{Send: true}},
		{name: "a state of the service's own is not an opt-out", desired: S, applied: S, service: "PENDING", want: Decision{Send: true}},
		{name: "statuses not shown: sent when the desired one changed", desired: S, applied: U, service: "", want: Decision{Send: true}},
		{name: "statuses not shown: nothing to send when unchanged", desired: S, applied: S, service: "", want: Decision{}},
		{name: "statuses not shown, applied unknown: sent", desired: U, applied: "", service: "", want: Decision{Send: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decide(tt.desired, tt.applied, tt.service, tt.allow); got != tt.want {
				t.Errorf("Decide(%q, %q, %q, %v) = %+v, want %+v", tt.desired, tt.applied, tt.service, tt.allow, got, tt.want)
			}
		})
	}
}
