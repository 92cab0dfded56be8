package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ExportTypes are the statistics export types the interface allows, in its
// order. OPENED, which a sample request of the interface uses, is not one.
var ExportTypes = []string{"LISTS", "CAMPAIGNS", "MESSAGES", "OPENS", "SENT", "CLICKS", "PROJECTS", "HARD_BOUNCES", "SOFT_BOUNCES", "OPTOUTS"}

// ExportPeriods are the periods the interface allows.
var ExportPeriods = []string{"TODAY", "LAST_DAY", "LAST_3_DAYS", "LAST_WEEK", "LAST_2_WEEKS"}

// StatisticsExportRequest starts a statistics export.
type StatisticsExportRequest struct {
	ExportType string `json:"exportType"`
	Period     string `json:"period"`
}

// StartStatistics starts an export and returns its batch id.
func (s *ExportService) StartStatistics(ctx context.Context, in StatisticsExportRequest) (ID, error) {
	a, err := s.c.write(ctx, http.MethodPost, Path(batchesPath, "exports", "statistics"), in)
	if err != nil {
		return "", fmt.Errorf("starting %s statistics export for %s: %w", in.ExportType, in.Period, err)
	}
	id := a.startedID("batchId")
	if id == "" {
		return "", fmt.Errorf("starting %s statistics export for %s: %w", in.ExportType, in.Period, a.namedNothing())
	}
	return ID(id), nil
}

// maxResultURL bounds the text/plain answer of the result URL call.
const maxResultURL = 16 << 10

// ResultURL returns the short-lived URL of a finished export's file. The
// interface says this call answers text/plain and must not be sent with
// Accept: application/json, so it asks for text/plain only. Anyone holding
// the URL can fetch the file until it expires: treat it as a secret.
func (s *BatchService) ResultURL(ctx context.Context, batchID string) (string, error) {
	resp, err := s.c.send(ctx, request{method: http.MethodGet, path: Path(batchesPath, batchID, "result", "url"), accept: "text/plain"})
	if err != nil {
		return "", fmt.Errorf("getting the result URL of batch %s: %w", batchID, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResultURL+1))
	if err != nil {
		return "", fmt.Errorf("getting the result URL of batch %s: reading the answer: %w", batchID, err)
	}
	if len(raw) > maxResultURL {
		return "", fmt.Errorf("getting the result URL of batch %s: the answer is longer than %d bytes", batchID, maxResultURL)
	}
	text, ok := resultURLText(resp.Header.Get("Content-Type"), raw)
	if !ok {
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		return "", fmt.Errorf("getting the result URL of batch %s: expected the URL as text/plain (or JSON naming it) but the service sent %s", batchID, mt)
	}
	u, err := url.Parse(text)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		// Never echo the text whole: it may be a working URL in a form we
		// failed to parse.
		return "", fmt.Errorf("getting the result URL of batch %s: the answer is not an absolute http(s) URL", batchID)
	}
	return text, nil
}

// resultURLText reads the URL out of the result URL answer: the whole
// text/plain body as the interface shows it, or, from a service that
// answers JSON whatever the Accept header, a JSON string or an object with
// a "url" (also "resultUrl", "href", "location") field. Any other media
// type is refused, since its text is not a URL.
func resultURLText(contentType string, raw []byte) (string, bool) {
	mt, _, err := mime.ParseMediaType(contentType)
	if contentType == "" || err != nil {
		mt = "text/plain"
	}
	trimmed := bytes.TrimSpace(raw)
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json") ||
		(mt == "text/plain" && len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '"'))
	switch {
	case isJSON:
		var s string
		if json.Unmarshal(trimmed, &s) == nil {
			return strings.TrimSpace(s), true
		}
		var obj map[string]any
		if json.Unmarshal(trimmed, &obj) != nil {
			return "", false
		}
		for _, k := range []string{"url", "resultUrl", "href", "location", "Location"} {
			if s, ok := obj[k].(string); ok && s != "" {
				return strings.TrimSpace(s), true
			}
		}
		return "", false
	case mt == "text/plain" || mt == "text/uri-list":
		return strings.TrimSpace(string(raw)), true
	}
	return "", false
}

// StartStatisticsOnce starts a statistics export; after an unknown
// outcome it reads back the account's STAT_EXPORT batches and adopts the
// one created since the attempt began with the same type and period.
func (s *ExportService) StartStatisticsOnce(ctx context.Context, in StatisticsExportRequest) (ID, error) {
	key := in.ExportType + " for " + in.Period
	found, err := CreateOrAdopt(ctx, s.c, "statistics export "+key,
		func(ctx context.Context) (*Batch, error) {
			id, err := s.StartStatistics(ctx, in)
			return &Batch{ID: id}, err
		},
		func(ctx context.Context, since time.Time) (*Batch, bool, error) {
			all, err := s.c.Batches.List(ctx, BatchTypeStatsExport)
			if err != nil {
				return nil, false, err
			}
			return adoptOne(all, "statistics export", key, since, func(b Batch) (string, time.Time, string) {
				created := b.DateCreated.Time
				if created.IsZero() {
					created = b.StartTime.Time // startTime is when the batch was accepted
				}
				return b.ExportType + " for " + b.Period, created, b.ID.String()
			})
		})
	if err != nil {
		return "", err
	}
	return found.ID, nil
}
