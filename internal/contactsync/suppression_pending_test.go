package contactsync

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSuppressionPending: Pending answers, without writing, exactly what
// Record then writes: opt-outs merged by originalId, on the channels the
// suppression list lacks (by id or by address), in the order given.
func TestSuppressionPending(t *testing.T) {
	e, run := suppressionEnv(t, "")
	ctx := context.Background()
	s := run.Suppression(e.listID)
	outs := []OptOut{
		{OriginalID: "n-1", Email: "new@example.com", Channels: Channels{Email: true}},
		{OriginalID: "s-1", Channels: Channels{Email: true, Mobile: true}},             // held on e-mail: mobile is pending
		{OriginalID: "s-9", Email: "ada@example.com", Channels: Channels{Email: true}}, // held by address
		{OriginalID: "n-1", Mobile: "+4911", Channels: Channels{Mobile: true}},         // merged into the first n-1
	}
	pending, err := s.Pending(ctx, outs)
	if err != nil {
		t.Fatal(err)
	}
	want := []OptOut{
		{OriginalID: "n-1", Email: "new@example.com", Mobile: "+4911", Channels: Channels{Email: true, Mobile: true}},
		{OriginalID: "s-1", Channels: Channels{Mobile: true}},
	}
	if diff := cmp.Diff(want, pending); diff != "" {
		t.Errorf("Pending (-want +got):\n%s", diff)
	}
	if _, err := e.client.Contacts.Get(ctx, e.listID, "n-1"); err == nil {
		t.Error("Pending wrote n-1 into the suppression list")
	}
	n, err := s.Record(ctx, pending)
	if err != nil || n != len(pending) {
		t.Errorf("Record of what Pending answered wrote %d (%v), want %d", n, err, len(pending))
	}
	if again, err := s.Pending(ctx, outs); err != nil || len(again) != 0 {
		t.Errorf("after Record, Pending answers %+v (%v), want nothing", again, err)
	}
}
