package contactsync

import (
	"context"
	"errors"
	"sync"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

// WriteConcurrency bounds the single calls in flight, as Terraform's own
// parallelism (10) bounds resources.
const WriteConcurrency = 8

// Failure is a change WriteSingles could not make.
type Failure struct {
	ID  string
	Err error
}

// WriteSingles applies changes to a list by single calls, side by side (at
// most WriteConcurrency at once; the client's rate limit caps them
// further). It returns the changes that failed, in the order they failed;
// the others were made. Every contact it writes (or tries to: a failed
// write may have acted) is answered from no listing of this run again.
func (r *Run) WriteSingles(ctx context.Context, listID string, changes []Change) []Failure {
	var mu sync.Mutex
	var failed []Failure
	work := make(chan Change)
	var wg sync.WaitGroup
	for range min(WriteConcurrency, len(changes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ch := range work {
				if err := r.writeOne(ctx, listID, ch); err != nil {
					mu.Lock()
					failed = append(failed, Failure{ID: ch.ID, Err: err})
					mu.Unlock()
				}
			}
		}()
	}
	for _, ch := range changes {
		r.Listings.Wrote(listID, ch.ID)
		work <- ch
	}
	close(work)
	wg.Wait()
	return failed
}

// writeOne makes one contact of a list as its change says.
func (r *Run) writeOne(ctx context.Context, listID string, ch Change) error {
	c := r.client
	if ch.Unsubscribe {
		st := ch.Status
		if st == (client.SubscriptionStatus{}) {
			st = client.SubscriptionStatus{Status: client.StatusUnsubscribed, MobileStatus: client.StatusUnsubscribed}
		}
		_, err := c.Contacts.SetSubscriptionStatus(ctx, listID, ch.ID, st)
		if errors.Is(err, client.ErrNotFound) {
			return nil // gone meanwhile: nothing to unsubscribe
		}
		return err
	}
	if ch.Create {
		// Contacts.CreateOnce adopts a contact an unanswered create made,
		// and refuses one that existed before: never a contact twice.
		_, err := c.Contacts.CreateOnce(ctx, listID, client.ContactInput{
			OriginalID: ch.ID, Properties: ch.Values(), Status: ch.Status.Status, MobileStatus: ch.Status.MobileStatus,
		})
		if !errors.Is(err, client.ErrConflict) {
			return err
		}
		// It appeared since the listing: update it instead. Its statuses
		// are written only when the create asked for UNSUBSCRIBED (always
		// allowed); a SUBSCRIBED would need the consent rule, which the
		// next plan applies with the contact listed.
		r.log.Info(ctx, "contact appeared since the listing; updating it", map[string]any{"list_id": listID, "original_id": ch.ID})
		ch.Create = false
		if ch.Status.Status != client.StatusUnsubscribed {
			ch.Status.Status = ""
		}
		if ch.Status.MobileStatus != client.StatusUnsubscribed {
			ch.Status.MobileStatus = ""
		}
	}
	if len(ch.Set) > 0 || len(ch.Remove) > 0 {
		patch := patchOf(ch.Set)
		for _, k := range ch.Remove {
			patch[k] = nil
		}
		if _, err := c.Contacts.UpdateProperties(ctx, listID, ch.ID, patch); err != nil {
			return err
		}
	}
	if ch.Status != (client.SubscriptionStatus{}) {
		if _, err := c.Contacts.SetSubscriptionStatus(ctx, listID, ch.ID, ch.Status); err != nil {
			return err
		}
	}
	return nil
}

// patchOf is a properties patch that sets every value of m.
func patchOf(m map[string]string) map[string]*string {
	out := make(map[string]*string, len(m))
	for k, v := range m {
		out[k] = &v
	}
	return out
}
