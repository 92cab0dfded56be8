package operation

import (
	"context"
	"strings"
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
)

// Rows a batch of the kept file refuses are named by their number in the
// user's file, and its total counts the held rows too.
func TestMapFailedRows(t *testing.T) {
	attrs := contactsync.LoadedAttributes(map[string]string{"1": "email"})
	file := "originalId,email\nheld-1,a@example.com\nok,b@example.com\nheld-2,c@example.com\nbad,row,x\n"
	split, err := contactsync.SplitImport(context.Background(), strings.NewReader(file), contactsync.FileOptions{Delimiter: ",", Encoding: "UTF8"}, attrs,
		func(id, _ string) (contactsync.Channels, error) {
			return contactsync.Channels{Email: strings.HasPrefix(id, "held")}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	// The kept file is the header, "ok" (row 2) and the bad row (row 3).
	b := &client.Batch{Total: 2, Failed: 1, FailedRows: []client.FailedRow{{Row: 3, Reason: "3 fields where the header has 2"}}}
	MapFailedRows(b, split)
	if b.FailedRows[0].Row != 5 || b.Total != 4 {
		t.Errorf("got row %d of %d, want row 5 of 4", b.FailedRows[0].Row, b.Total)
	}
	// Nothing held: unchanged.
	b = &client.Batch{Total: 2, FailedRows: []client.FailedRow{{Row: 3}}}
	MapFailedRows(b, nil)
	if b.FailedRows[0].Row != 3 || b.Total != 2 {
		t.Errorf("got row %d of %d, want it unchanged", b.FailedRows[0].Row, b.Total)
	}
}
