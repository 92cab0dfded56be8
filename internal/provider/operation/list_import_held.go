package operation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
	"github.com/rms-labs/terraform-provider-rms/internal/contactsync"
	"github.com/rms-labs/terraform-provider-rms/internal/provider/apidiag"
)

// Rows of an ADD or REPLACE import whose contact the account's suppression
// list holds are held back from the upload (contactsync.SplitImport) and
// written here by single calls, each with its status: a new contact is
// created UNSUBSCRIBED on the suppressed channels in the create itself, an
// existing one (ADD) takes the row's values and is unsubscribed there. An
// ADD import writes them before it uploads; a REPLACE import after its
// batch has finished, since the batch removes every contact the uploaded
// file does not name.

// KeptBody is the file to upload without the held rows: a temporary file
// in the declared encoding and delimiter. close removes it.
func KeptBody(split *contactsync.ImportSplit, body io.ReadSeeker, opts contactsync.FileOptions) (kept io.ReadSeeker, closeKept func(), err error) {
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	f, err := os.CreateTemp("", "rms-import-*.csv")
	if err != nil {
		return nil, nil, fmt.Errorf("holding back suppressed rows: %w", err)
	}
	closeKept = func() { _ = f.Close(); _ = os.Remove(f.Name()) }
	if err := split.WriteKept(body, opts, f); err != nil {
		closeKept()
		return nil, nil, fmt.Errorf("holding back suppressed rows: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		closeKept()
		return nil, nil, err
	}
	return f, closeKept, nil
}

// WriteHeldRows writes the held rows of an import into list listID by
// single calls. It reports false, with an error naming the row, at the
// first that fails.
func WriteHeldRows(ctx context.Context, c *client.Client, listings *contactsync.Listings, listID string, held []contactsync.HeldRow, diags *diag.Diagnostics) bool {
	for _, row := range held {
		if err := writeHeldRow(ctx, c, listID, row); err != nil {
			diags.AddError("Unable to write a suppressed contact of the import",
				fmt.Sprintf("Row %d of the file (contact %q) names a contact the suppression list holds, so it is written by single calls, unsubscribed on %s, instead of in the import's upload. That failed: %s",
					row.Row, row.OriginalID, row.Channels, apidiag.Describe(err)))
			return false
		}
		listings.Wrote(listID, row.OriginalID)
	}
	if len(held) > 0 {
		tflog.Info(ctx, "wrote the suppressed rows of an import by single calls", map[string]any{"list_id": listID, "rows": len(held)})
	}
	return true
}

// writeHeldRow writes one held row: a create with its status, or, for a
// contact the list holds, its values and then its status.
func writeHeldRow(ctx context.Context, c *client.Client, listID string, row contactsync.HeldRow) error {
	want := row.Status() // the core's decision (contactsync.PlanContact)
	made, err := c.Contacts.CreateOnce(ctx, listID, client.ContactInput{
		OriginalID: row.OriginalID, Properties: row.Properties, Status: want.Status, MobileStatus: want.MobileStatus,
	})
	switch {
	case errors.Is(err, client.ErrConflict):
		if len(row.Properties) > 0 {
			props := make(map[string]*string, len(row.Properties))
			for k, v := range row.Properties {
				props[k] = &v
			}
			if _, err := c.Contacts.UpdateProperties(ctx, listID, row.OriginalID, props); err != nil {
				return err
			}
		}
	case err != nil:
		return err
	case made != nil && (!row.Channels.Email || made.Status == client.StatusUnsubscribed) && (!row.Channels.Mobile || made.MobileStatus == client.StatusUnsubscribed):
		return nil // the create took the status
	}
	// An existing contact, or a service whose answer does not show that
	// the create took the status: set it (writing the state a contact
	// already has is accepted).
	_, err = c.Contacts.SetSubscriptionStatus(ctx, listID, row.OriginalID, want)
	return err
}

// MapFailedRows numbers the rows a batch of the kept file refused in the
// user's file, and counts the held rows in its total, so that what the
// diagnostics say of the batch is said of the user's file.
func MapFailedRows(b *client.Batch, split *contactsync.ImportSplit) {
	if b == nil || split == nil || len(split.Held) == 0 {
		return
	}
	for i := range b.FailedRows {
		if r := b.FailedRows[i].Row; r > 0 {
			b.FailedRows[i].Row = int64(split.UserRow(int(r)))
		}
	}
	if b.Total > 0 {
		b.Total += int64(len(split.Held))
	}
}
