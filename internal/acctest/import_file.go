package acctest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// ImportByHand runs the interface's three-step import over REST, as a user
// would by hand outside Terraform: it creates the import with req (the
// interface's import request fields), uploads csv as text/csv and waits for
// the batch to finish. It returns the import and batch ids.
func (e *Env) ImportByHand(t testing.TB, listID string, req map[string]any, csv string) (importID, batchID string) {
	t.Helper()
	var created struct {
		ID json.Number `json:"id"`
	}
	e.MustDo(t, http.MethodPost, "lists/"+listID+"/imports", req, &created)
	importID = created.ID.String()

	url := fmt.Sprintf("%s/rest/%d/lists/%s/recipients/%s", e.URL, e.CustomerID, listID, importID)
	httpReq, err := http.NewRequest(http.MethodPost, url, strings.NewReader(csv))
	if err != nil {
		t.Fatalf("building the upload: %v", err)
	}
	httpReq.SetBasicAuth(e.Username, e.Password)
	httpReq.Header.Set("Accept", "application/json")
	httpReq.Header.Set("Content-Type", "text/csv")
	resp, err := http.DefaultClient.Do(httpReq)
	if err != nil {
		t.Fatalf("uploading the file of import %s: %v", importID, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	var uploaded struct {
		BatchID json.Number `json:"batchId"`
	}
	if resp.StatusCode > 299 || json.Unmarshal(raw, &uploaded) != nil || uploaded.BatchID == "" {
		t.Fatalf("uploading the file of import %s: status %d, body %q", importID, resp.StatusCode, raw)
	}
	batchID = uploaded.BatchID.String()

	// The emulator's batches finish as its clock advances; with the default
	// options at once. Wait on the status, never on a fixed time.
	for {
		var b struct {
			Status string `json:"status"`
		}
		e.MustDo(t, http.MethodGet, "batches/"+batchID, nil, &b)
		if b.Status == "FINISHED" {
			return importID, batchID
		}
		if t.Context().Err() != nil {
			t.Fatalf("batch %s did not finish before the test ended", batchID)
		}
	}
}
