package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
)

func TestStartStatisticsExportValidation(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{})
	_, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "OPENED", Period: "TODAY"})
	apiErr, ok := AsAPIError(err)
	if !ok || !errors.Is(err, ErrValidation) || apiErr.Field != "exportType" {
		t.Fatalf("err = %v, want a validation error on exportType", err)
	}
	mustContain(t, err.Error(), "did you mean OPENS?")
	_, err = c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "OPENS", Period: "LAST_MONTH"})
	if apiErr, ok := AsAPIError(err); !ok || apiErr.Field != "period" {
		t.Fatalf("err = %v, want a validation error on period", err)
	}
}

// The client's lists of allowed values are the emulator's: every one is
// accepted.
func TestExportTypesAndPeriodsAreAccepted(t *testing.T) {
	c, _ := newEmulatorClient(t, emulator.Options{})
	for _, typ := range ExportTypes {
		for _, period := range ExportPeriods {
			if _, err := c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: typ, Period: period}); err != nil {
				t.Errorf("%s %s: %v", typ, period, err)
			}
		}
	}
}

// The export's minute of PENDING passes on a synctest bubble's clock.
func TestResultURLAndDownloadAgainstEmulator(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := newInMemoryClient(t, emulator.Options{BatchPendingFor: time.Minute, StatisticsExportExtraRows: 5_000})
		ctx := context.Background()
		if err := c.Resources.Create(ctx, "projects", map[string]any{"name": "Spring"}, nil); err != nil {
			t.Fatal(err)
		}
		id, err := c.Exports.StartStatistics(ctx, StatisticsExportRequest{ExportType: "PROJECTS", Period: "LAST_WEEK"})
		if err != nil {
			t.Fatal(err)
		}

		// Not finished yet: a conflict, in both calls.
		if _, err := c.Batches.ResultURL(ctx, id.String()); !errors.Is(err, ErrConflict) {
			t.Errorf("Batches.ResultURL before FINISHED: %v, want a conflict", err)
		}
		if _, err := c.Batches.DownloadResult(ctx, id.String(), io.Discard); !errors.Is(err, ErrConflict) {
			t.Errorf("DownloadResult before FINISHED: %v, want a conflict", err)
		}
		time.Sleep(time.Minute) // at once: the bubble's clock jumps

		u, err := c.Batches.ResultURL(ctx, id.String())
		if err != nil {
			t.Fatalf("Batches.ResultURL: %v", err)
		}
		if !strings.Contains(u, "/objectstore/") {
			t.Errorf("result URL = %q", u)
		}

		var file bytes.Buffer
		d, err := c.Batches.DownloadResult(ctx, id.String(), &file)
		if err != nil {
			t.Fatalf("DownloadResult: %v", err)
		}
		sum := sha256.Sum256(file.Bytes())
		if d.Size != int64(file.Len()) || d.SHA256 != hex.EncodeToString(sum[:]) || d.ContentType != "text/csv; charset=utf-8" {
			t.Errorf("download = %+v; file has %d bytes, sha256 %x", d, file.Len(), sum)
		}
		rows, err := csv.NewReader(&file).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1+1+5_000 || rows[0][0] != "projectId" || rows[1][1] != "Spring" {
			t.Errorf("file has %d rows, starting %v", len(rows), rows[:2])
		}
		// The redirect was followed, and the emulator saw: POST, GET result (x3:
		// conflict, URL, redirect) and the object.
		got := s.Requests().ByRoute
		if got["GET /objectstore/{token}"] != 1 || got["GET /rest/{customerid}/batches/{batchId}/result"] != 2 {
			t.Errorf("routes served: %v", got)
		}
	})
}

// Batches.ResultURL asks for text/plain only, and refuses what is not a URL.
func TestGetResultURLHeadersAndAnswers(t *testing.T) {
	tests := []struct {
		name, contentType, body, wantErr string
	}{
		{"a URL", "text/plain; charset=utf-8", "https://store.example.com/x?sig=abc\n", ""},
		{"JSON object", "application/json", `{"url":"https://store.example.com/x?sig=abc"}`, ""},
		{"JSON string", "application/json;charset=UTF-8", `"https://store.example.com/x?sig=abc"`, ""},
		{"JSON labelled as text", "text/plain", `{"resultUrl":"https://store.example.com/x?sig=abc"}`, ""},
		{"no content type", "", "https://store.example.com/x?sig=abc", ""},
		{"JSON without a URL", "application/json", `{"status":"ok"}`, "expected the URL as text/plain (or JSON naming it) but the service sent application/json"},
		{"HTML", "text/html", `<html>please wait</html>`, "but the service sent text/html"},
		{"not a URL", "text/plain", "please wait", "the answer is not an absolute http(s) URL"},
		{"relative", "text/plain", "/objectstore/abc", "the answer is not an absolute http(s) URL"},
		{"too long", "text/plain", "https://x/" + strings.Repeat("a", maxResultURL), "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if got := r.Header.Values("Accept"); len(got) != 1 || got[0] != "text/plain" {
					t.Errorf("Accept = %q, want exactly text/plain", got)
				}
				if r.URL.Path != "/rest/1000/batches/7/result/url" {
					t.Errorf("path = %s", r.URL.Path)
				}
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				} else {
					w.Header()["Content-Type"] = nil // no sniffing either
				}
				_, _ = io.WriteString(w, tt.body)
			}))
			u, err := c.Batches.ResultURL(context.Background(), "7")
			if tt.wantErr == "" {
				if err != nil || u != "https://store.example.com/x?sig=abc" {
					t.Errorf("Batches.ResultURL = %q, %v", u, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Batches.ResultURL = %q, want an error", u)
			}
			mustContain(t, err.Error(), tt.wantErr)
			if strings.Contains(err.Error(), "please wait") {
				t.Error("the error echoes the answer")
			}
		})
	}
}

// The download streams: the writer receives the first part of the file
// while the server still holds back the rest. A client that buffered the
// whole body would never see the first part, and the test would time out.
func TestDownloadResultStreams(t *testing.T) {
	firstSeen := make(chan struct{})
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		_, _ = io.WriteString(w, "a,b\n")
		w.(http.Flusher).Flush()
		select {
		case <-firstSeen:
		case <-time.After(10 * time.Second):
			t.Error("the client did not pass on the first part before the rest arrived")
		}
		_, _ = io.WriteString(w, "1,2\n")
	}))
	w := &signalWriter{signal: firstSeen}
	d, err := c.Batches.DownloadResult(context.Background(), "7", w)
	if err != nil {
		t.Fatal(err)
	}
	if w.buf.String() != "a,b\n1,2\n" || d.Size != 8 {
		t.Errorf("got %q, %+v", w.buf.String(), d)
	}
}

type signalWriter struct {
	buf    bytes.Buffer
	signal chan struct{}
	once   bool
}

func (w *signalWriter) Write(p []byte) (int, error) {
	if !w.once {
		w.once = true
		close(w.signal)
	}
	return w.buf.Write(p)
}

// Credentials never follow the redirect to another host, and a redirect to
// plain http on a remote host is refused.
func TestDownloadResultRedirects(t *testing.T) {
	object := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth := r.Header.Get("Authorization"); auth != "" {
			t.Errorf("the object storage received credentials: %q", auth)
		}
		_, _ = io.WriteString(w, "x,y\n")
	}))
	defer object.Close()
	// 127.0.0.1 and localhost are different hosts to the HTTP client.
	objectURL := strings.Replace(object.URL, "127.0.0.1", "localhost", 1) + "/file.csv"
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			t.Error("the service call carried no credentials")
		}
		http.Redirect(w, r, objectURL, http.StatusFound)
	}))
	var buf bytes.Buffer
	if _, err := c.Batches.DownloadResult(context.Background(), "7", &buf); err != nil || buf.String() != "x,y\n" {
		t.Fatalf("DownloadResult = %q, %v", buf.String(), err)
	}

	var calls counter
	insecure, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.inc()
		http.Redirect(w, r, "http://storage.example.com/file.csv", http.StatusFound)
	}))
	_, err := insecure.Batches.DownloadResult(context.Background(), "7", io.Discard)
	if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect to a plain http URL") {
		t.Errorf("err = %v, want the insecure redirect refused", err)
	}
	if calls.get() != 1 {
		t.Errorf("the refused redirect was retried: %d calls", calls.get())
	}
}

// A body cut short is an error, not a short file.
func TestDownloadResultTruncated(t *testing.T) {
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = io.WriteString(w, "only a little")
	}))
	_, err := c.Batches.DownloadResult(context.Background(), "7", io.Discard)
	if err == nil {
		t.Fatal("a truncated download succeeded")
	}
	mustContain(t, err.Error(), "downloading the result of batch 7")
}

// resultURLText reads each shape a service may answer the result URL call
// with, and refuses the rest (shapes Batches.ResultURL is tested with end to end
// above are not repeated).
func TestResultURLText(t *testing.T) {
	const u = "https://store.example.com/x?sig=abc"
	tests := []struct {
		name, contentType, body string
		want                    string
		wantOK                  bool
	}{
		{"href", "application/json", `{"href":"` + u + `"}`, u, true},
		{"location", "application/json", `{"location":"` + u + `"}`, u, true},
		{"Location", "application/json", `{"Location":"` + u + `"}`, u, true},
		{"url wins over href", "application/json", `{"href":"https://other/","url":"` + u + `"}`, u, true},
		{"empty url falls through to href", "application/json", `{"url":"","href":"` + u + `"}`, u, true},
		{"blanks trimmed in JSON", "application/json", `{"url":"  ` + u + ` "}`, u, true},
		{"vendor +json", "application/vnd.rms.v1+json; charset=utf-8", `{"resultUrl":"` + u + `"}`, u, true},
		{"JSON string labelled text", "text/plain", `"` + u + `"`, u, true},
		{"JSON object after blanks, labelled text", "text/plain", "\n {\"url\":\"" + u + "\"}", u, true},
		{"uri-list", "text/uri-list", u + "\r\n", u, true},
		{"unparsable content type reads as text", "text/plain;;;=", u, u, true},
		{"text in upper case", "TEXT/PLAIN", u, u, true},
		{"url not a string", "application/json", `{"url":5}`, "", false},
		{"url an object", "application/json", `{"url":{"href":"` + u + `"}}`, "", false},
		{"JSON number", "application/json", `5`, "", false},
		{"JSON array", "application/json", `["` + u + `"]`, "", false},
		{"broken JSON", "application/json", `{"url":"` + u, "", false},
		{"octet-stream", "application/octet-stream", u, "", false},
		{"XML", "application/xml", `<url>` + u + `</url>`, "", false},
		{"CSV", "text/csv", u, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := resultURLText(tt.contentType, []byte(tt.body))
			if ok != tt.wantOK || got != tt.want {
				t.Errorf("resultURLText(%q, %s) = %q, %v; want %q, %v", tt.contentType, tt.body, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// End to end, the refusals name what was sent but never echo the text.
func TestGetResultURLMoreAnswers(t *testing.T) {
	tests := []struct {
		name, contentType, body, wantErr string
	}{
		{"href in vendor JSON", "application/vnd.rms+json", `{"href":"https://store.example.com/x?sig=abc"}`, ""},
		{"uri-list", "text/uri-list", "https://store.example.com/x?sig=abc\r\n", ""},
		{"JSON null", "application/json", `null`, "the answer is not an absolute http(s) URL"},
		{"ftp", "text/plain", "ftp://secret.example.com/x", "the answer is not an absolute http(s) URL"},
		{"no host", "text/plain", "https:///x", "the answer is not an absolute http(s) URL"},
		{"octet-stream", "application/octet-stream", "https://secret.example.com/x", "but the service sent application/octet-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				_, _ = io.WriteString(w, tt.body)
			}))
			got, err := c.Batches.ResultURL(context.Background(), "7")
			if tt.wantErr == "" {
				if err != nil || got != "https://store.example.com/x?sig=abc" {
					t.Errorf("Batches.ResultURL = %q, %v", got, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Batches.ResultURL = %q, want an error", got)
			}
			mustContain(t, err.Error(), tt.wantErr)
			mustContain(t, err.Error(), "getting the result URL of batch 7")
			if strings.Contains(err.Error(), "secret.example.com") {
				t.Errorf("the error echoes the answer: %v", err)
			}
		})
	}
}
