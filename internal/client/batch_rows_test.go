package client

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// A batch's counts are known only where the service sent them, and its
// failedRows are read leniently: a list of another shape is left out, never
// an error that would stop the wait.
func TestBatchDecodesFailedRows(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantShown BatchCountsShown
		wantRows  []FailedRow
	}{
		{"all counts", `{"id":1,"status":"FINISHED","processed":4,"affected":2,"failed":2,"failedRows":[{"row":3,"reason":"3 fields where the header has 2"},{"row":"5","reason":"empty identity"}]}`,
			BatchCountsShown{Processed: true, Affected: true, Failed: true},
			[]FailedRow{{Row: 3, Reason: "3 fields where the header has 2"}, {Row: 5, Reason: "empty identity"}}},
		{"no counts", `{"id":1,"status":"FINISHED"}`, BatchCountsShown{}, nil},
		{"null counts", `{"id":1,"status":"FINISHED","processed":null,"affected":null,"failed":null,"failedRows":null}`, BatchCountsShown{}, nil},
		{"failed only", `{"id":1,"status":"FINISHED","failed":0}`, BatchCountsShown{Failed: true}, nil},
		{"rows of another shape", `{"id":1,"status":"FINISHED","failed":1,"failedRows":"row 3"}`, BatchCountsShown{Failed: true}, nil},
		{"row without a number", `{"id":1,"status":"FINISHED","failed":1,"failedRows":[{"line":"three","reason":7}]}`, BatchCountsShown{Failed: true}, []FailedRow{{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Batch
			if err := json.Unmarshal([]byte(tt.body), &b); err != nil {
				t.Fatalf("decoding %s: %v", tt.body, err)
			}
			if b.Shown != tt.wantShown {
				t.Errorf("Shown = %+v, want %+v", b.Shown, tt.wantShown)
			}
			if diff := cmp.Diff(tt.wantRows, b.FailedRows); diff != "" {
				t.Errorf("FailedRows (-want +got):\n%s", diff)
			}
		})
	}
}

// The emulator's import batch counts and names the rows it could not
// handle; under batch-sparse it shows neither, and the client says so.
func TestBatchFailedRowsFromTheEmulator(t *testing.T) {
	for _, wire := range []string{"", emulator.WireBatchSparse} {
		t.Run("wire="+wire, func(t *testing.T) {
			opts := emulator.Options{}
			if wire != "" {
				opts.Wire = emulator.MustParseWire(wire)
			}
			c, _ := newEmulatorClient(t, opts)
			ctx := context.Background()
			list, err := c.Lists.CreateOnce(ctx, ListInput{Name: "Rows"})
			if err != nil {
				t.Fatal(err)
			}
			importID, err := c.Imports.CreateOnce(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"})
			if err != nil {
				t.Fatal(err)
			}
			batchID, err := c.Imports.UploadOnce(ctx, list.ID.String(), importID.String(), strings.NewReader("originalId\na\nb,extra\n\"\"\nd\n"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := c.Batches.Get(ctx, batchID.String()) // the emulator with no pace finishes at once
			if err != nil {
				t.Fatal(err)
			}
			n, shown := b.FailedCount()
			if wire != "" {
				if shown || b.Shown.Processed || b.Shown.Affected || b.FailedRows != nil {
					t.Errorf("batch-sparse: Shown %+v, FailedRows %+v; want nothing shown", b.Shown, b.FailedRows)
				}
				return
			}
			if !shown || n != 2 {
				t.Errorf("FailedCount = %d, %v; want 2, true", n, shown)
			}
			want := []FailedRow{{Row: 3, Reason: "2 fields where the header has 1"}, {Row: 4, Reason: `the identity column "originalId" is empty`}}
			if diff := cmp.Diff(want, b.FailedRows); diff != "" {
				t.Errorf("FailedRows (-want +got):\n%s", diff)
			}
		})
	}
}
