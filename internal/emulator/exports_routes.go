package emulator

// The routes of statistics exports: starting one, its result URL and the
// object storage it downloads from.

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

func (s *exportsAPI) registerExports() {
	s.handleJSON("POST /rest/{customerid}/batches/exports/statistics", s.startStatisticsExport)
	s.handle("GET /rest/{customerid}/batches/{batchId}/result/url", s.serveResultURL)
	s.handle("GET /rest/{customerid}/batches/{batchId}/result", s.serveResultRedirect)
}

// startStatisticsExport answers 202 Accepted with { batchId } (a string, as
// the interface shows) and a Location header naming the batch.
func (s *exportsAPI) startStatisticsExport(w http.ResponseWriter, r *http.Request) *apierr.Error {
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	exportType, err := enumField(body, "exportType", exportTypes, exportTypeHints)
	if err != nil {
		return err
	}
	period, err := enumField(body, "period", periodOrder, nil)
	if err != nil {
		return err
	}
	now := s.opts.Now()
	job := &exportJob{
		exportType: exportType,
		period:     period,
		table:      statisticsSources[exportType](s, periodStart(period, now), now),
		extraRows:  s.opts.StatisticsExportExtraRows,
	}
	b := s.batchesAPI.startBatch(batchTypeStatExport, job)
	s.log.Info("statistics export started", "batch", b.ID, "exportType", exportType, "period", period, "rows", job.Total())
	w.Header().Set("Location", s.batchesAPI.batchPath(b.ID))
	s.writeJSON(w, http.StatusAccepted, map[string]string{"batchId": strconv.FormatInt(b.ID, 10)})
	return nil
}

// exportResult finds the finished export named by the path, or says why its
// result is not available: 404 for an unknown batch or one that is not an
// export, 409 for an export not yet finished or failed.
func (s *exportsAPI) exportResult(r *http.Request) (*state.Batch, *apierr.Error) {
	b, err := s.batchesAPI.lookupBatch(r)
	if err != nil {
		return nil, err
	}
	if _, ok := b.Work.(*exportJob); !ok {
		return nil, apierr.Errorf(http.StatusNotFound, "batch %d is an %s batch; only statistics exports have a result", b.ID, b.Type)
	}
	v := viewOfBatch(b, s.opts.CustomerID)
	if v.Status != batchStatusFinished {
		return nil, apierr.Errorf(http.StatusConflict, "batch %d is %s; its result is available once it is FINISHED", b.ID, v.Status)
	}
	if v.Error != "" {
		return nil, apierr.Errorf(http.StatusConflict, "batch %d failed and has no result: %s", b.ID, v.Error)
	}
	return b, nil
}

// serveResultURL answers the result's URL as text/plain. The interface says
// this call must not be sent with Accept: application/json; a request whose
// Accept excludes text/plain is answered 406.
func (s *exportsAPI) serveResultURL(w http.ResponseWriter, r *http.Request) {
	if s.opts.Wire.Has(WireResultURLJSON) {
		// result-url-json: the URL as JSON, whatever the Accept header.
		b, err := s.exportResult(r)
		if err != nil {
			s.writeError(w, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		s.writeJSON(w, http.StatusOK, map[string]string{"url": s.mintResultURL(r, b.ID)})
		return
	}
	if !accepts(r, "text/plain") {
		s.writeError(w, apierr.Errorf(http.StatusNotAcceptable, "this call answers only in text/plain; the Accept header excludes it (do not send Accept: application/json)"))
		return
	}
	b, err := s.exportResult(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	u := s.mintResultURL(r, b.ID)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, u); err != nil {
		s.log.Debug("writing result URL", "error", err)
	}
}

// serveResultRedirect answers 302 Found to a fresh result URL.
func (s *exportsAPI) serveResultRedirect(w http.ResponseWriter, r *http.Request) {
	b, err := s.exportResult(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	if s.opts.Wire.Has(WireResultDirect) {
		// result-direct: the file itself instead of a redirect.
		s.writeExportFile(w, r, b, b.Work.(*exportJob))
		return
	}
	w.Header().Set("Location", s.mintResultURL(r, b.ID))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusFound)
}

// mintResultURL makes a new URL for batch id's file, on the host the client
// reached the emulator by.
func (s *exportsAPI) mintResultURL(r *http.Request, id int64) string {
	var raw [16]byte
	_, _ = rand.Read(raw[:]) // crypto/rand.Read never fails
	token := hex.EncodeToString(raw[:])
	now := s.opts.Now()
	s.store.ResultLinks.Add(token, state.ResultLink{BatchID: id, Expires: now.Add(s.opts.ResultURLTTL)}, now, keepExpired)
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + objectStorePrefix + token
}

func (s *exportsAPI) registerObjectStore() {
	s.handle("GET "+objectStorePrefix+"{token}", s.serveObject)
}

// hasResult reports whether token was minted here (expired or not), so
// that a front serving several accounts finds the one that serves it.
func (s *exportsAPI) hasResult(token string) bool {
	_, ok := s.store.ResultLinks.Get(token)
	return ok
}

// serveObject streams an export file to a holder of a valid token.
func (s *exportsAPI) serveObject(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	link, ok := s.store.ResultLinks.Get(token)
	if !ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no object at this URL"))
		return
	}
	if now := s.opts.Now(); !now.Before(link.Expires) {
		s.writeError(w, apierr.Errorf(http.StatusGone, "this result URL expired at %s; ask for a new one with GET .../batches/%d/result/url", link.Expires.UTC().Format(time.RFC3339), link.BatchID))
		return
	}
	b, ok := s.batchesAPI.batch(link.BatchID)
	if !ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no object at this URL"))
		return
	}
	job, ok := b.Work.(*exportJob)
	if !ok {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no object at this URL"))
		return
	}
	s.writeExportFile(w, r, b, job)
}

// writeExportFile streams an export's file as the answer.
func (s *exportsAPI) writeExportFile(w http.ResponseWriter, r *http.Request, b *state.Batch, job *exportJob) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="statistics-`+strconv.FormatInt(b.ID, 10)+`.csv"`)
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	if err := job.writeCSV(w); err != nil {
		// The status is sent; a client sees a truncated body.
		s.log.Debug("writing export file", "batch", b.ID, "error", err)
	}
}
