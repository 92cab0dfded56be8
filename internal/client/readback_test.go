package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

// emulatorClientWith serves the emulator behind wrap, so a test can answer
// some requests itself.
func emulatorClientWith(t *testing.T, opts emulator.Options, wrap func(http.Handler) http.Handler) (*Client, *emulator.Server) {
	t.Helper()
	s := emulator.New(opts)
	srv := httptest.NewServer(wrap(s))
	t.Cleanup(srv.Close)
	o := s.Options()
	c, err := New(Config{
		BaseURL: srv.URL, CustomerID: o.CustomerID, Auth: BasicAuth{Username: o.Username, Password: o.Password},
		MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// The listings of the service conventions, typed.
func TestListImportsAndBatches(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{})
	ctx := context.Background()
	list, err := c.Lists.Create(ctx, ListInput{Name: "Read back"})
	if err != nil {
		t.Fatal(err)
	}
	in := ImportRequest{Delimiter: "59", Encoding: "ANSI", Type: "ADD", IdentityColumn: "email"}
	first, err := c.Imports.Create(ctx, list.ID.String(), in)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Imports.Create(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "REPLACE"})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := c.Imports.Upload(ctx, list.ID.String(), first.String(), strings.NewReader("email\na@example.com\n"))
	if err != nil {
		t.Fatal(err)
	}
	imps, err := c.Imports.List(ctx, list.ID.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(imps) != 2 || imps[0].ID != first || imps[1].ID != second {
		t.Fatalf("imports = %+v, want %s then %s", imps, first, second)
	}
	if !imps[0].Matches(in) || imps[0].BatchID != batch || imps[0].DateCreated.IsZero() {
		t.Errorf("first import = %+v, want the request %+v, batch %s and a dateCreated", imps[0], in, batch)
	}
	if imps[1].IdentityColumn != "" || imps[1].BatchID != "" {
		t.Errorf("second import = %+v, want no identity column and no batch", imps[1])
	}
	if _, err := c.Imports.List(ctx, "999"); !IsNotFound(err) {
		t.Errorf("imports of an unknown list: %v, want not found", err)
	}

	export, err := c.Exports.StartStatistics(ctx, StatisticsExportRequest{ExportType: "LISTS", Period: "TODAY"})
	if err != nil {
		t.Fatal(err)
	}
	exports, err := c.Batches.List(ctx, BatchTypeStatsExport)
	if err != nil {
		t.Fatal(err)
	}
	if len(exports) != 1 || exports[0].ID != export || exports[0].ExportType != "LISTS" || exports[0].Period != "TODAY" || exports[0].DateCreated.IsZero() {
		t.Errorf("STAT_EXPORT batches = %+v, want export %s with its request", exports, export)
	}
	all, err := c.Batches.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != batch || all[0].ListID != list.ID || all[0].ImportID != first {
		t.Errorf("all batches = %+v, want the import batch %s first with its list and import", all, batch)
	}
}

// Every POST is carried out and its answer dropped: each step of an import
// and an export start adopts what it made, and nothing is made twice.
func TestReadBackAdoptsActThenDrop(t *testing.T) {
	c, s := newEmulatorClient(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}}})
	ctx := context.Background()
	list, err := c.Lists.CreateOnce(ctx, ListInput{Name: "Dropped"})
	if err != nil {
		t.Fatal(err)
	}
	importID, err := c.Imports.CreateOnce(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"})
	if err != nil {
		t.Fatalf("Imports.CreateOnce: %v", err)
	}
	batch, err := c.Imports.UploadOnce(ctx, list.ID.String(), importID.String(), strings.NewReader("originalId\na\nb\n"))
	if err != nil {
		t.Fatalf("Imports.UploadOnce: %v", err)
	}
	imps, err := c.Imports.List(ctx, list.ID.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(imps) != 1 || imps[0].ID != importID || imps[0].BatchID != batch {
		t.Errorf("imports = %+v, want only %s with batch %s", imps, importID, batch)
	}
	export, err := c.Exports.StartStatisticsOnce(ctx, StatisticsExportRequest{ExportType: "PROJECTS", Period: "LAST_DAY"})
	if err != nil {
		t.Fatalf("Exports.StartStatisticsOnce: %v", err)
	}
	all, err := c.Batches.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != batch || all[1].ID != export {
		t.Errorf("batches = %+v, want the import batch %s and the export %s only", all, batch, export)
	}
	if got := s.Faults().ActThenDrop; got != 4 {
		t.Errorf("%d POSTs acted then dropped, want 4 (list, import, upload, export)", got)
	}
}

// Two objects that match the request and the window cannot be told apart:
// the error names both and nothing more is made.
func TestReadBackRefusesToGuess(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}, PathPrefix: "lists/"}})
	ctx := context.Background()
	list, err := c.Lists.Create(ctx, ListInput{Name: "Twins"})
	if err != nil {
		t.Fatal(err)
	}
	in := ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"}
	if _, err := c.Imports.Create(ctx, list.ID.String(), in); !IsUncertain(err) {
		t.Fatalf("plain create: %v, want an unknown outcome", err)
	}
	_, err = c.Imports.CreateOnce(ctx, list.ID.String(), in)
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(amb.IDs) != 2 || amb.Kind != "import" {
		t.Fatalf("Imports.CreateOnce: %v, want an AmbiguousError naming 2 imports", err)
	}
	if imps, _ := c.Imports.List(ctx, list.ID.String()); len(imps) != 2 {
		t.Errorf("%d imports, want the 2 candidates only", len(imps))
	}

	c2, _ := newEmulatorClient(t, emulator.Options{Faults: emulator.FaultOptions{ActThenDropRate: 1, Methods: []string{"POST"}}})
	req := StatisticsExportRequest{ExportType: "LISTS", Period: "TODAY"}
	if _, err := c2.Exports.StartStatistics(ctx, req); !IsUncertain(err) {
		t.Fatalf("plain export start: %v, want an unknown outcome", err)
	}
	// Another type or period is not a candidate.
	if _, err := c2.Exports.StartStatisticsOnce(ctx, StatisticsExportRequest{ExportType: "LISTS", Period: "LAST_DAY"}); err != nil {
		t.Fatalf("export of another period: %v", err)
	}
	_, err = c2.Exports.StartStatisticsOnce(ctx, req)
	if !errors.As(err, &amb) || len(amb.IDs) != 2 || amb.Kind != "statistics export" {
		t.Fatalf("Exports.StartStatisticsOnce: %v, want an AmbiguousError naming 2 batches", err)
	}
}

// Answers that come before the service acted (a gateway's 502) are read
// back, found absent and sent again: the upload is rewound and sent whole.
func TestReadBackRepeatsWhatDidNotHappen(t *testing.T) {
	var failed atomic.Int32
	c, _ := emulatorClientWith(t, emulator.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && (strings.Contains(r.URL.Path, "/recipients/") || strings.HasSuffix(r.URL.Path, "/imports") || strings.HasSuffix(r.URL.Path, "/statistics")) && failed.Add(1)%2 == 1 {
				writeError(w, http.StatusBadGateway, "BAD_GATEWAY", "upstream failed", "")
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	ctx := context.Background()
	list, err := c.Lists.Create(ctx, ListInput{Name: "Again"})
	if err != nil {
		t.Fatal(err)
	}
	importID, err := c.Imports.CreateOnce(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"})
	if err != nil {
		t.Fatal(err)
	}
	batchID, err := c.Imports.UploadOnce(ctx, list.ID.String(), importID.String(), strings.NewReader("originalId\na\nb\nc\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Batches.Get(ctx, batchID.String())
	if err != nil {
		t.Fatal(err)
	}
	if b.Total != 3 {
		t.Errorf("batch total = %d, want the 3 rows of the whole file", b.Total)
	}
	if _, err := c.Exports.StartStatisticsOnce(ctx, StatisticsExportRequest{ExportType: "LISTS", Period: "TODAY"}); err != nil {
		t.Fatal(err)
	}
	imps, _ := c.Imports.List(ctx, list.ID.String())
	all, _ := c.Batches.List(ctx, "")
	if len(imps) != 1 || len(all) != 2 {
		t.Errorf("%d imports and %d batches, want 1 and 2", len(imps), len(all))
	}
	if got := failed.Load(); got != 6 {
		t.Errorf("%d POSTs, want 6 (each of the three sent twice)", got)
	}
}

// An upload the service carried out although the answer was lost, whose
// import a first read-back still shows without a batch (a listing that lags
// behind): the repeated upload is refused with 409, which is read back
// rather than reported, and the batch then shown is adopted.
func TestUploadImportOnceReadsBackAConflict(t *testing.T) {
	var uploads, lagging atomic.Int32
	c, _ := emulatorClientWith(t, emulator.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/recipients/"):
				if uploads.Add(1) == 1 {
					next.ServeHTTP(httptest.NewRecorder(), r) // carried out, answer lost
					writeError(w, http.StatusGatewayTimeout, "GATEWAY_TIMEOUT", "upstream timed out", "")
					return
				}
			case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/imports") && lagging.Add(1) == 1:
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				var imps []map[string]any
				if err := json.Unmarshal(rec.Body.Bytes(), &imps); err != nil {
					t.Errorf("decoding the imports: %v", err)
				}
				for _, imp := range imps {
					imp["batchId"] = nil
				}
				body, _ := json.Marshal(imps)
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(body)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	ctx := context.Background()
	list, err := c.Lists.Create(ctx, ListInput{Name: "Lagging"})
	if err != nil {
		t.Fatal(err)
	}
	importID, err := c.Imports.Create(ctx, list.ID.String(), ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"})
	if err != nil {
		t.Fatal(err)
	}
	batchID, err := c.Imports.UploadOnce(ctx, list.ID.String(), importID.String(), strings.NewReader("originalId\na\n"))
	if err != nil {
		t.Fatalf("Imports.UploadOnce: %v", err)
	}
	all, err := c.Batches.List(ctx, BatchTypeImport)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].ID != batchID {
		t.Errorf("IMPORT batches = %+v, want only the adopted %s", all, batchID)
	}
	if got := uploads.Load(); got != 2 {
		t.Errorf("%d uploads, want 2 (the lost one and the refused repeat)", got)
	}
}
