package emulator

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// wireOffsetZone is the +02:00 offset of time-offset.
var wireOffsetZone = time.FixedZone("+02:00", 2*60*60)

func parseRFC3339(s string) (time.Time, error) { return time.Parse(time.RFC3339, s) }

func unixMilli(ms int64) time.Time { return time.UnixMilli(ms) }

// The rewriting layer of the wire profiles that change the shape of
// successful JSON answers (ids, timestamps, optional fields, extra fields)
// and the status and body of writes (create-*, update-*, write-200). It
// buffers a handler's answer only when that answer is JSON or has no
// Content-Type (a 204, a redirect) and is not an error; anything else (an
// export file, a result URL in text/plain) streams through untouched. It
// runs only for paths under /rest/ and only when such a profile is chosen,
// so the default answers are the handlers' own bytes.

// rewriteProfiles are the profiles this layer applies.
var rewriteProfiles = []string{
	WireCreateIDOnly, WireCreateLocation, WireWrite200, WireUpdateEmpty, WireUpdate204,
	WireIDsString, WireIDsNumber, WireTimeMillis, WireTimeSeconds, WireTimeOffset,
	WireOptionalNull, WireOptionalEmpty, WireExtraFields,
}

// Mux patterns the layer recognises (as registered in routes).
const (
	patGenericCreate  = "POST " + genericBase
	patNestedCreate   = "POST " + genericBase + "/{id}/{sub}"
	patWebhookCreate  = "POST /rest/{customerid}/webhooks"
	patContactCreate  = "POST " + contactsBase
	patImportCreate   = "POST " + importsPath
	patImportList     = "GET " + importsPath
	patUpload         = "POST " + recipientsPath
	patExportStart    = "POST /rest/{customerid}/batches/exports/statistics"
	patBatchList      = "GET /rest/{customerid}/batches"
	patBatchGet       = "GET /rest/{customerid}/batches/{batchId}"
	patMessageSend    = "POST /rest/{customerid}/triggers/{id}/messages"
	patContactGet     = "GET " + contactsBase + "/{originalId}"
	patContactList    = "GET " + contactsBase
	patContactUpdate  = "PUT " + contactsBase + "/{originalId}"
	patContactStatus  = "PUT " + contactsBase + "/{originalId}/subscriptionstatus"
	patGenericGetOne  = "GET " + genericBase + "/{id}"
	patGenericList    = "GET " + genericBase
	patGenericUpdate  = "PUT " + genericBase + "/{id}"
	patWebhookGetOne  = "GET /rest/{customerid}/webhooks/{id}"
	patWebhookList    = "GET /rest/{customerid}/webhooks"
	patWebhookUpdate  = "PUT /rest/{customerid}/webhooks/{id}"
	wireTimeOffsetFmt = "2006-01-02T15:04:05.000Z07:00"
)

// entityCreates are the creates create-id-only and create-location change;
// the interface-documented answers (import, upload, export, message send)
// are not among them.
var entityCreates = map[string]bool{
	patGenericCreate: true, patNestedCreate: true, patWebhookCreate: true, patContactCreate: true,
}

var (
	batchPatterns   = map[string]bool{patBatchList: true, patBatchGet: true}
	importPatterns  = map[string]bool{patImportCreate: true, patImportList: true}
	contactPatterns = map[string]bool{patContactCreate: true, patContactGet: true, patContactList: true, patContactUpdate: true, patContactStatus: true}
	// topEntityPatterns are the calls answering a top-level generic entity
	// or webhook (where optional fields of projects, lists and webhooks
	// are filled).
	topEntityPatterns = map[string]bool{
		patGenericCreate: true, patGenericGetOne: true, patGenericList: true, patGenericUpdate: true,
		patWebhookCreate: true, patWebhookGetOne: true, patWebhookList: true, patWebhookUpdate: true,
	}
)

// optionalFields are the optional string fields, by collection, that
// optional-null and optional-empty fill when a stored entity lacks them.
var optionalFields = map[string][]string{
	"projects": {"description"},
	"lists":    {"description", "senderName", "senderEmail"},
	"webhooks": {"description"},
}

// serveWire is serve behind the rewriting layer when a profile needs it.
func (s *Server) serveWire(w http.ResponseWriter, r *http.Request) string {
	if !s.opts.Wire.hasAny(rewriteProfiles...) || !strings.HasPrefix(r.URL.Path, "/rest/") {
		return s.serve(w, r)
	}
	ww := &wireWriter{ResponseWriter: w}
	pattern := s.serve(ww, r)
	ww.finish(s, r, pattern)
	return pattern
}

// wireWriter buffers an answer the layer may rewrite, and passes any other
// straight through.
type wireWriter struct {
	http.ResponseWriter
	mode   int // 0 undecided, wireBuffer, wirePass
	status int
	buf    bytes.Buffer
}

const (
	wireBuffer = 1
	wirePass   = 2
)

func (w *wireWriter) WriteHeader(code int) {
	if w.mode != 0 {
		return
	}
	ct := w.Header().Get("Content-Type")
	if code >= 400 || (ct != "" && !isJSONType(ct)) {
		w.mode = wirePass
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.mode, w.status = wireBuffer, code
}

func (w *wireWriter) Write(b []byte) (int, error) {
	if w.mode == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.mode == wirePass {
		return w.ResponseWriter.Write(b)
	}
	return w.buf.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *wireWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// finish sends the buffered answer, rewritten.
func (w *wireWriter) finish(s *Server, r *http.Request, pattern string) {
	if w.mode == wirePass {
		return
	}
	if w.mode == 0 {
		w.status = http.StatusOK
	}
	status, body := s.rewriteAnswer(r, pattern, w.status, w.Header(), w.buf.Bytes())
	if len(body) == 0 {
		w.Header().Del("Content-Type")
	}
	w.Header().Del("Content-Length")
	w.ResponseWriter.WriteHeader(status)
	if len(body) > 0 && status != http.StatusNoContent {
		if _, err := w.ResponseWriter.Write(body); err != nil {
			s.log.Debug("writing response", "error", err)
		}
	}
}

// rewriteAnswer applies the profiles to one successful answer.
func (s *Server) rewriteAnswer(r *http.Request, pattern string, status int, h http.Header, body []byte) (int, []byte) {
	wire := s.opts.Wire
	if len(bytes.TrimSpace(body)) > 0 && isJSONType(h.Get("Content-Type")) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return status, body // not ours to fix (a corrupt-fault answer)
		}
		rw := answerRewrite{s: s, r: r, pattern: pattern}
		v = rw.value(v)
		if entityCreates[pattern] && status == http.StatusCreated && wire.Has(WireCreateIDOnly) {
			if obj, ok := v.(map[string]any); ok {
				v = map[string]any{"id": obj["id"]}
			}
		}
		if out, err := json.Marshal(v); err == nil {
			out = append(out, '\n')
			body = out
		}
	}
	if entityCreates[pattern] && status == http.StatusCreated && wire.Has(WireCreateLocation) {
		body = nil
		if loc := h.Get("Location"); strings.HasPrefix(loc, "/") {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			h.Set("Location", scheme+"://"+r.Host+loc)
		}
	}
	if r.Method == http.MethodPut && status >= 200 && status < 300 {
		switch {
		case wire.Has(WireUpdateEmpty):
			status, body = http.StatusOK, nil
		case wire.Has(WireUpdate204):
			status, body = http.StatusNoContent, nil
		}
	}
	if wire.Has(WireWrite200) {
		switch {
		case (r.Method == http.MethodPost || r.Method == http.MethodPut) && (status == http.StatusCreated || status == http.StatusAccepted):
			status = http.StatusOK
		case r.Method == http.MethodDelete && status == http.StatusNoContent:
			status, body = http.StatusOK, nil
		}
	}
	return status, body
}

// answerRewrite rewrites the values of one JSON answer.
type answerRewrite struct {
	s       *Server
	r       *http.Request
	pattern string
}

// value rewrites the top-level object, or each object of a top-level array.
func (a answerRewrite) value(v any) any {
	switch t := v.(type) {
	case map[string]any:
		a.object(t, false)
	case []any:
		for _, el := range t {
			if obj, ok := el.(map[string]any); ok {
				a.object(obj, true)
			}
		}
	}
	return v
}

// object rewrites one entity, batch or id-carrying answer in place;
// element says it is an element of a collection.
func (a answerRewrite) object(obj map[string]any, element bool) {
	wire := a.s.opts.Wire
	self := a.selfPath(obj, element)
	isBatch := batchPatterns[a.pattern]
	if wire.Has(WireIDsString) {
		keys := []string{"id"}
		if isBatch {
			keys = append(keys, "customerId")
		}
		if a.pattern == patMessageSend {
			keys = append(keys, "triggerId")
		}
		for _, k := range keys {
			if n, ok := obj[k].(json.Number); ok {
				obj[k] = n.String()
			}
		}
	}
	if wire.Has(WireIDsNumber) {
		var keys []string
		switch {
		case importPatterns[a.pattern]:
			keys = []string{"id", "listId", "batchId"}
		case a.pattern == patUpload || a.pattern == patExportStart:
			keys = []string{"batchId"}
		case isBatch:
			keys = []string{"listId", "importId"}
		}
		for _, k := range keys {
			if str, ok := obj[k].(string); ok {
				if _, err := strconv.ParseInt(str, 10, 64); err == nil {
					obj[k] = json.Number(str)
				}
			}
		}
	}
	a.times(obj, isBatch)
	if _, hasID := obj["id"]; hasID {
		a.optional(obj, isBatch)
		if wire.Has(WireExtraFields) {
			for k, val := range map[string]any{"_links": map[string]any{"self": self}, "xVersion": 2, "tags": []any{}} {
				if _, taken := obj[k]; !taken {
					obj[k] = val
				}
			}
		}
	}
}

// selfPath is the path naming obj, for extra-fields' _links.
func (a answerRewrite) selfPath(obj map[string]any, element bool) string {
	path := a.r.URL.EscapedPath()
	if !element && a.r.Method != http.MethodPost {
		return path
	}
	if contactPatterns[a.pattern] {
		if oid, ok := obj["originalId"].(string); ok {
			return path + "/" + url.PathEscape(oid)
		}
	}
	switch id := obj["id"].(type) {
	case json.Number:
		return path + "/" + id.String()
	case string:
		return path + "/" + url.PathEscape(id)
	}
	return path
}

// times rewrites dateCreated/dateModified and a batch's startTime/endTime.
func (a answerRewrite) times(obj map[string]any, isBatch bool) {
	wire := a.s.opts.Wire
	if !wire.hasAny(WireTimeMillis, WireTimeSeconds, WireTimeOffset) {
		return
	}
	for _, k := range []string{"dateCreated", "dateModified"} {
		str, ok := obj[k].(string)
		if !ok {
			continue
		}
		t, err := parseRFC3339(str)
		if err != nil {
			continue
		}
		switch {
		case wire.Has(WireTimeMillis):
			obj[k] = json.Number(strconv.FormatInt(t.UnixMilli(), 10))
		case wire.Has(WireTimeSeconds):
			obj[k] = json.Number(strconv.FormatInt(t.Unix(), 10))
		case wire.Has(WireTimeOffset):
			obj[k] = t.In(wireOffsetZone).Format(wireTimeOffsetFmt)
		}
	}
	if !isBatch || wire.Has(WireTimeMillis) {
		return
	}
	for _, k := range []string{"startTime", "endTime"} {
		n, ok := obj[k].(json.Number)
		if !ok {
			continue
		}
		ms, err := n.Int64()
		if err != nil {
			continue
		}
		if wire.Has(WireTimeSeconds) {
			obj[k] = json.Number(strconv.FormatInt(ms/1000, 10))
		} else {
			obj[k] = unixMilli(ms).In(wireOffsetZone).Format(wireTimeOffsetFmt)
		}
	}
}

// optional fills the optional fields obj lacks with null or "".
func (a answerRewrite) optional(obj map[string]any, isBatch bool) {
	wire := a.s.opts.Wire
	var fill any
	switch {
	case wire.Has(WireOptionalNull):
		fill = nil
	case wire.Has(WireOptionalEmpty):
		fill = ""
	default:
		return
	}
	var fields []string
	switch {
	case topEntityPatterns[a.pattern]:
		fields = optionalFields[collectionOf(a.r.URL.Path)]
	case isBatch:
		// A sparse batch keeps its few fields (batch-sparse).
		if _, full := obj["startTime"]; full {
			fields = []string{"error"}
			if fill == nil {
				fields = append(fields, "endTime")
			}
		}
	case a.pattern == patImportList:
		if obj["identityColumn"] == nil && fill != nil {
			obj["identityColumn"] = fill
		}
	}
	for _, f := range fields {
		if _, ok := obj[f]; !ok {
			obj[f] = fill
		}
	}
}
