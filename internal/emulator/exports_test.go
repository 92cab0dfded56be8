package emulator

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"
)

func TestStatisticsExportValidation(t *testing.T) {
	s := New(Options{})
	const types = "LISTS, CAMPAIGNS, MESSAGES, OPENS, SENT, CLICKS, PROJECTS, HARD_BOUNCES, SOFT_BOUNCES, OPTOUTS"
	const periods = "TODAY, LAST_DAY, LAST_3_DAYS, LAST_WEEK, LAST_2_WEEKS"
	tests := []struct {
		name string
		body any
		want ErrorBody
	}{
		{"missing exportType", map[string]any{"period": "TODAY"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "exportType", Message: "exportType is mandatory; one of " + types}},
		{"null exportType", map[string]any{"exportType": nil, "period": "TODAY"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "exportType", Message: "exportType is mandatory; one of " + types}},
		{"OPENED, from the interface's sample", map[string]any{"exportType": "OPENED", "period": "TODAY"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "exportType", Message: `exportType "OPENED" is not supported; did you mean OPENS? Allowed: ` + types}},
		{"lower case", map[string]any{"exportType": "clicks", "period": "TODAY"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "exportType", Message: `exportType "clicks" is not supported; did you mean CLICKS? Allowed: ` + types}},
		{"unknown exportType", map[string]any{"exportType": "BOUNCES", "period": "TODAY"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "exportType", Message: `exportType "BOUNCES" is not supported; allowed: ` + types}},
		{"exportType not a string", map[string]any{"exportType": 3, "period": "TODAY"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "exportType", Message: "exportType must be a string; one of " + types}},
		{"missing period", map[string]any{"exportType": "OPENS"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "period", Message: "period is mandatory; one of " + periods}},
		{"LAST_MONTH", map[string]any{"exportType": "OPENS", "period": "LAST_MONTH"},
			ErrorBody{Status: 400, Code: CodeValidation, Field: "period", Message: `period "LAST_MONTH" is not supported; allowed: ` + periods}},
		{"not an object", `["OPENS"]`,
			ErrorBody{Status: 400, Code: CodeValidation, Message: "request body must be a JSON object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, do(t, s, http.MethodPost, "/rest/1000/batches/exports/statistics", tt.body), tt.want)
		})
	}
	// The JSON media rules hold as for every JSON call.
	wantErrorCode(t, do(t, s, http.MethodPost, "/rest/1000/batches/exports/statistics", `{"exportType":"OPENS","period":"TODAY"}`,
		withHeader("Content-Type", "text/csv")), http.StatusUnsupportedMediaType, CodeUnsupportedMediaType)
	wantErrorCode(t, do(t, s, http.MethodPost, "/rest/1000/batches/exports/statistics", `{"exportType":"OPENS","period":"TODAY"}`,
		withHeader("Accept", "text/plain")), http.StatusNotAcceptable, CodeNotAcceptable)
	// Nothing was started by the refused requests.
	if n := len(s.store.Batches.All("")); n != 0 {
		t.Errorf("%d batches started by refused requests", n)
	}
	for _, p := range periodOrder {
		startExport(t, s, "OPENS", p)
	}
}

var resultURLPattern = regexp.MustCompile(`^http://example\.com/objectstore/[0-9a-f]{32}$`)

// fetchObject GETs a result URL (an absolute URL on the emulator) without
// credentials.
func fetchObject(t *testing.T, s *Server, rawURL string) *httptest.ResponseRecorder {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatalf("result URL %q: %v", rawURL, err)
	}
	return do(t, s, http.MethodGet, u.Path, nil, withoutAuth(), withHeader("Accept", "*/*"))
}

func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("the export is not CSV: %v\n%s", err, body)
	}
	return rows
}

func TestExportResultFlow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		s := New(Options{BatchPendingFor: time.Second, ResultURLTTL: time.Minute})
		p1 := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "Spring, sales"})
		p2 := mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": `Quote "q"`})
		id := startExport(t, s, "PROJECTS", "LAST_WEEK")
		// Created after the request: not in this export.
		mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "later"})
		base := "/rest/1000/batches/" + id

		// Before FINISHED: 409 on both calls.
		wantError(t, do(t, s, http.MethodGet, base+"/result/url", nil, withHeader("Accept", "text/plain")),
			ErrorBody{Status: 409, Code: CodeConflict, Message: "batch " + id + " is PENDING; its result is available once it is FINISHED"})
		wantErrorCode(t, do(t, s, http.MethodGet, base+"/result", nil), http.StatusConflict, CodeConflict)
		advance(time.Second)

		// The URL is text/plain; Accept must allow it.
		for _, accept := range []string{"text/plain", "*/*", "text/*", "application/json, text/plain;q=0.5", ""} {
			opt := withHeader("Accept", accept)
			if accept == "" {
				opt = withoutHeader("Accept")
			}
			rec := do(t, s, http.MethodGet, base+"/result/url", nil, opt)
			wantStatus(t, rec, http.StatusOK)
			if ct := rec.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Accept %q: Content-Type = %q", accept, ct)
			}
			if !resultURLPattern.MatchString(rec.Body.String()) {
				t.Errorf("Accept %q: URL %q does not match %s", accept, rec.Body.String(), resultURLPattern)
			}
		}
		for _, accept := range []string{"application/json", "application/json, text/plain;q=0"} {
			wantError(t, do(t, s, http.MethodGet, base+"/result/url", nil, withHeader("Accept", accept)),
				ErrorBody{Status: 406, Code: CodeNotAcceptable, Message: "this call answers only in text/plain; the Accept header excludes it (do not send Accept: application/json)"})
		}

		// Each call mints a new URL.
		u1 := do(t, s, http.MethodGet, base+"/result/url", nil, withHeader("Accept", "text/plain")).Body.String()
		u2 := do(t, s, http.MethodGet, base+"/result/url", nil, withHeader("Accept", "text/plain")).Body.String()
		if u1 == u2 {
			t.Errorf("two calls returned the same URL %s", u1)
		}

		// The redirect leads to a URL of the same kind.
		rec := do(t, s, http.MethodGet, base+"/result", nil, withHeader("Accept", "*/*"))
		wantStatus(t, rec, http.StatusFound)
		loc := rec.Header().Get("Location")
		if !resultURLPattern.MatchString(loc) {
			t.Fatalf("Location %q does not match %s", loc, resultURLPattern)
		}

		// The file: real CSV with a header and the projects as of the request.
		obj := fetchObject(t, s, loc)
		wantStatus(t, obj, http.StatusOK)
		if ct := obj.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("object Content-Type = %q", ct)
		}
		want := [][]string{
			{"projectId", "name", "dateCreated", "dateModified"},
			{idOf(t, p1), "Spring, sales", rfc3339(t0), rfc3339(t0)},
			{idOf(t, p2), `Quote "q"`, rfc3339(t0), rfc3339(t0)},
		}
		if diff := cmp.Diff(want, readCSV(t, obj.Body.Bytes())); diff != "" {
			t.Errorf("export file (-want +got):\n%s", diff)
		}
		// Every download of one export has the same bytes.
		if again := fetchObject(t, s, u1); !bytes.Equal(again.Body.Bytes(), obj.Body.Bytes()) {
			t.Error("two downloads of one export differ")
		}

		// Expiry: valid until the TTL is over, then 410; a fresh URL works.
		advance(59 * time.Second)
		wantStatus(t, fetchObject(t, s, loc), http.StatusOK)
		advance(time.Second)
		gone := fetchObject(t, s, loc)
		wantErrorCode(t, gone, http.StatusGone, CodeGone)
		if !strings.Contains(gone.Body.String(), "result/url") {
			t.Errorf("410 body does not say how to get a new URL: %s", gone.Body.String())
		}
		fresh := do(t, s, http.MethodGet, base+"/result/url", nil, withHeader("Accept", "text/plain")).Body.String()
		wantStatus(t, fetchObject(t, s, fresh), http.StatusOK)
		// Long after expiry the token is forgotten: 404.
		advance(2 * time.Hour)
		do(t, s, http.MethodGet, base+"/result/url", nil, withHeader("Accept", "text/plain")) // minting prunes
		wantErrorCode(t, fetchObject(t, s, loc), http.StatusNotFound, CodeNotFound)
		wantErrorCode(t, fetchObject(t, s, "http://example.com/objectstore/00000000000000000000000000000000"), http.StatusNotFound, CodeNotFound)
	})
}

func TestExportFilesPerType(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// TODAY reaches back to midnight, where a bubble starts: begin in
		// the morning so that what the account holds lies inside a day,
		// not on its edge.
		advance(10 * time.Hour)
		t0 := time.Now()
		s := New(Options{})
		list := mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "Customers"})
		campaign := mustCreate(t, s, "/rest/1000/campaigns", map[string]any{"name": "Black Friday", "subject": "Deals"})
		old := mustCreate(t, s, "/rest/1000/messages", map[string]any{"subject": "old"})
		listID := mustParseID(t, idOf(t, list))
		if err := s.UpsertContacts(listID, []Contact{{OriginalID: "a"}, {OriginalID: "b", Status: "UNSUBSCRIBED"}, {OriginalID: "c"}}); err != nil {
			t.Fatal(err)
		}
		advance(2 * 24 * time.Hour)
		t2 := time.Now()
		recent := mustCreate(t, s, "/rest/1000/messages", map[string]any{"subject": "new"})
		if err := s.UpsertContacts(listID, []Contact{{OriginalID: "c", Status: "UNSUBSCRIBED"}}); err != nil {
			t.Fatal(err)
		}
		advance(time.Hour)

		file := func(exportType, period string) [][]string {
			t.Helper()
			id := startExport(t, s, exportType, period)
			rec := do(t, s, http.MethodGet, "/rest/1000/batches/"+id+"/result", nil)
			wantStatus(t, rec, http.StatusFound)
			obj := fetchObject(t, s, rec.Header().Get("Location"))
			wantStatus(t, obj, http.StatusOK)
			return readCSV(t, obj.Body.Bytes())
		}
		// One account for every case, so no subtests (a bubble allows
		// none): each case names itself in its error.
		tests := []struct {
			exportType, period string
			want               [][]string
		}{
			{"LISTS", "TODAY", [][]string{{"listId", "name", "contacts", "unsubscribed", "dateCreated", "dateModified"}, {idOf(t, list), "Customers", "3", "2", rfc3339(t0), rfc3339(t0)}}},
			// Opt-outs are the unsubscribed contacts whose last change is in the period.
			{"OPTOUTS", "LAST_DAY", [][]string{{"eventTime", "messageId", "listId", "originalId"}, {rfc3339(t2), "", idOf(t, list), "c"}}},
			{"OPTOUTS", "LAST_3_DAYS", [][]string{{"eventTime", "messageId", "listId", "originalId"}, {rfc3339(t0), "", idOf(t, list), "b"}, {rfc3339(t2), "", idOf(t, list), "c"}}},
			{"CAMPAIGNS", "TODAY", [][]string{{"campaignId", "name", "dateCreated", "dateModified"}, {idOf(t, campaign), "Black Friday", rfc3339(t0), rfc3339(t0)}}},
			{"MESSAGES", "LAST_DAY", [][]string{{"messageId", "dateCreated"}, {idOf(t, recent), rfc3339(t2)}}},
			{"MESSAGES", "TODAY", [][]string{{"messageId", "dateCreated"}, {idOf(t, recent), rfc3339(t2)}}},
			{"MESSAGES", "LAST_3_DAYS", [][]string{{"messageId", "dateCreated"}, {idOf(t, old), rfc3339(t0)}, {idOf(t, recent), rfc3339(t2)}}},
			{"OPENS", "LAST_2_WEEKS", [][]string{{"eventTime", "messageId", "listId", "originalId"}}},
		}
		for _, tt := range tests {
			if diff := cmp.Diff(tt.want, file(tt.exportType, tt.period)); diff != "" {
				t.Errorf("%s %s: file (-want +got):\n%s", tt.exportType, tt.period, diff)
			}
		}
	})
	for _, exportType := range exportTypes {
		if statisticsSources[exportType] == nil {
			t.Errorf("export type %s has no source", exportType)
		}
	}
}

// countingWriter counts bytes and lines without keeping them.
type countingWriter struct{ bytes, lines int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.bytes += int64(len(p))
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// Extra rows make large files for benchmarks; they count in total and are
// streamed as the file is served.
func TestExportExtraRows(t *testing.T) {
	s := New(Options{StatisticsExportExtraRows: 200_000})
	mustCreate(t, s, "/rest/1000/projects", map[string]any{"name": "p"})
	id := startExport(t, s, "PROJECTS", "TODAY")
	if v := getBatchView(t, s, id); v.Total != 200_001 || v.Processed != 200_001 {
		t.Errorf("batch = %+v, want total and processed 200001", v)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/rest/1000/batches/"+id+"/result", nil)
	req.SetBasicAuth(DefaultUsername, DefaultPassword)
	resp, err := http.DefaultClient.Do(req) // follows the redirect
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/objectstore/") {
		t.Fatalf("GET result: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	var cw countingWriter
	if _, err := io.Copy(&cw, resp.Body); err != nil {
		t.Fatal(err)
	}
	if cw.lines != 200_002 {
		t.Errorf("file has %d lines, want 200002 (header, one project, 200000 extra)", cw.lines)
	}
}

// The batch routes answer as the OpenAPI document says.
func TestBatchResponsesMatchOpenAPIDocument(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BatchPendingFor: time.Second})
		doc := loadServedDocument(t, s)
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			t.Fatalf("building router: %v", err)
		}
		id := startExport(t, s, "PROJECTS", "TODAY")
		base := "/rest/1000/batches/" + id
		check := func(name, method, path, body, accept string, wantStatus int, wantOp string) *httptest.ResponseRecorder {
			t.Helper()
			var b any
			if body != "" {
				b = body
			}
			rec := do(t, s, method, path, b, withHeader("Accept", accept))
			if rec.Code != wantStatus {
				t.Fatalf("%s: status %d, want %d: %s", name, rec.Code, wantStatus, rec.Body.String())
			}
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("%s: no documented route: %v", name, err)
			}
			if route.Operation.OperationID != wantOp {
				t.Errorf("%s: routed to %s, want %s", name, route.Operation.OperationID, wantOp)
			}
			err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
				RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
				Status:                 rec.Code,
				Header:                 rec.Header(),
				Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
				Options:                &openapi3filter.Options{IncludeResponseStatus: true},
			})
			if err != nil {
				t.Errorf("%s: response does not match the document: %v\nbody: %.300s", name, err, rec.Body.String())
			}
			return rec
		}
		check("pending batch", http.MethodGet, base, "", "application/json", 200, "getBatch")
		check("result too early", http.MethodGet, base+"/result/url", "", "text/plain", 409, "getBatchResultURL")
		check("start", http.MethodPost, "/rest/1000/batches/exports/statistics", `{"exportType":"SENT","period":"LAST_DAY"}`, "application/json", 202, "startStatisticsExport")
		check("bad export", http.MethodPost, "/rest/1000/batches/exports/statistics", `{"exportType":"OPENED","period":"LAST_DAY"}`, "application/json", 400, "startStatisticsExport")
		check("unknown batch", http.MethodGet, "/rest/1000/batches/9999", "", "application/json", 404, "getBatch")
		advance(time.Second)
		check("finished batch", http.MethodGet, base, "", "application/json", 200, "getBatch")
		check("json accept", http.MethodGet, base+"/result/url", "", "application/json", 406, "getBatchResultURL")
		u := check("result url", http.MethodGet, base+"/result/url", "", "text/plain", 200, "getBatchResultURL").Body.String()
		check("redirect", http.MethodGet, base+"/result", "", "*/*", 302, "getBatchResult")
		parsed, _ := url.Parse(u)
		check("object", http.MethodGet, parsed.Path, "", "*/*", 200, "getResultObject")
		check("no object", http.MethodGet, "/objectstore/ffffffffffffffffffffffffffffffff", "", "*/*", 404, "getResultObject")
	})
}
