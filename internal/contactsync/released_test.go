package contactsync

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func TestReleasedContacts(t *testing.T) {
	r := NewReleased()
	if _, ok := r.Take("1", "a"); ok {
		t.Error("took a contact never released")
	}
	r.Add("1", "a", client.SubscriptionStatus{Status: client.StatusUnsubscribed, MobileStatus: client.StatusSubscribed})
	if _, ok := r.Take("2", "a"); ok {
		t.Error("took a contact of another list")
	}
	st, ok := r.Take("1", "a")
	if !ok || st.Status != client.StatusUnsubscribed || st.MobileStatus != client.StatusSubscribed {
		t.Errorf("take = %+v, %v", st, ok)
	}
	if _, ok := r.Take("1", "a"); ok {
		t.Error("a released contact was taken twice")
	}
}
