package provider

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/rms-labs/terraform-provider-rms/internal/client"
)

func decodedBatch(t *testing.T, body string) *client.Batch {
	t.Helper()
	var b client.Batch
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	return &b
}

// judgeFailedRows: above the limit an error naming the rows and what state
// it leaves; at or below it a warning; no failed rows, or none reported,
// nothing.
func TestJudgeFailedRows(t *testing.T) {
	t.Parallel()
	two := `{"id":9,"status":"FINISHED","total":4,"failed":2,"failedRows":[{"row":3,"reason":"3 fields where the header has 2"},{"row":5,"reason":"empty identity"}]}`
	tests := []struct {
		name     string
		body     string
		limit    int64
		wantOK   bool
		severity diag.Severity // 0: no diagnostic
		want     []string
	}{
		{"above", two, 0, false, diag.SeverityError, []string{"2 of 4 rows of the file could not be imported (batch 9)", "row 3: 3 fields where the header has 2", "row 5: empty identity", "max_failed_rows (0)", "LEAVES"}},
		{"at", two, 2, true, diag.SeverityWarning, []string{"2 of 4 rows", "row 5: empty identity", "max_failed_rows (2) allows them"}},
		{"rows not named", `{"id":9,"status":"FINISHED","total":4,"failed":1}`, 0, false, diag.SeverityError, []string{"1 of 4 rows", "the service did not say which"}},
		{"more than named", `{"id":9,"status":"FINISHED","failed":12,"failedRows":[{"row":2,"reason":"x"}]}`, 0, false, diag.SeverityError, []string{"12 rows of the file", "row 2: x", "and 11 more"}},
		{"none failed", `{"id":9,"status":"FINISHED","total":4,"failed":0}`, 0, true, 0, nil},
		{"not reported", `{"id":9,"status":"FINISHED"}`, 0, true, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			ok := judgeFailedRows(&diags, decodedBatch(t, tt.body), tt.limit, "LEAVES")
			if ok != tt.wantOK {
				t.Errorf("ok = %v, want %v", ok, tt.wantOK)
			}
			if tt.severity == 0 {
				if len(diags) != 0 {
					t.Errorf("diagnostics %v, want none", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Severity() != tt.severity {
				t.Fatalf("diagnostics %v, want one of severity %v", diags, tt.severity)
			}
			for _, w := range tt.want {
				if !strings.Contains(diagText(diags), w) {
					t.Errorf("%q lacks %q", diagText(diags), w)
				}
			}
		})
	}
}

// rms_list_contacts warns of the rows its imports refused: the apply's
// read-back writes them by single calls; a destroy, which reads nothing
// back, says the contacts may still be subscribed. Nothing when the batch
// does not report failed rows.
func TestListContactsWarnsOfFailedImportRows(t *testing.T) {
	t.Parallel()
	refused := `{"id":7,"status":"FINISHED","total":300,"failed":1,"failedRows":[{"row":42,"reason":"contact \"c41\": refused"}]}`
	for _, tt := range []struct {
		name       string
		destroying bool
		body       string
		want       string
	}{
		{"apply", false, refused, "wrote, by single calls, whatever was still not as configured"},
		{"destroy", true, refused, "may still be subscribed to e-mail"},
		{"not reported", false, `{"id":7,"status":"FINISHED","total":300}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			w := &contactWriter{listID: "5", destroying: tt.destroying}
			w.warnFailedRows(decodedBatch(t, tt.body), &diags)
			if tt.want == "" {
				if len(diags) != 0 {
					t.Errorf("diagnostics %v, want none", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning {
				t.Fatalf("diagnostics %v, want one warning", diags)
			}
			text := diagText(diags)
			for _, w := range []string{"Contacts import of list 5: rows refused", "1 of 300 rows of the import file the provider wrote", `row 42: contact "c41": refused`, tt.want} {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
		})
	}
}
