package emulator

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// Error bodies and the JSON charset under the wire profiles errors-* and
// charset-*. Both are decided where answers are written (writeError,
// writeJSON), so they hold for every error, injected faults and the checks
// before routing included.

// jsonContentTypeFor is the Content-Type of JSON answers under the wire.
func (s *base) jsonContentTypeFor() string {
	switch {
	case s.opts.Wire.Has(WireCharsetNone):
		return "application/json"
	case s.opts.Wire.Has(WireCharsetUpper):
		return "application/json;charset=UTF-8"
	}
	return jsonContentType
}

// writeWireError answers e in the shape an errors-* profile chooses and
// reports whether one did; the caller has set the headers of e (Allow).
func (s *base) writeWireError(w http.ResponseWriter, e *apierr.Error, code string) bool {
	wire := s.opts.Wire
	status := e.Status
	title := fmt.Sprintf("%d %s", status, http.StatusText(status))
	var contentType, body string
	switch {
	case wire.Has(WireErrorsText):
		contentType = "text/plain; charset=utf-8"
		body = title + ": " + e.Message + "\n"
	case wire.Has(WireErrorsHTML):
		contentType = "text/html; charset=utf-8"
		t := html.EscapeString(title)
		body = "<html><head><title>" + t + "</title></head><body><center><h1>" + t +
			"</h1></center><p>" + html.EscapeString(e.Message) + "</p><hr><center>gateway</center></body></html>\n"
	case wire.Has(WireErrorsEmpty):
	case wire.Has(WireErrorsOtherJSON):
		inner := map[string]string{"code": code, "description": e.Message}
		if e.Field != "" {
			inner["target"] = e.Field
		}
		raw, err := json.Marshal(map[string]any{"error": inner})
		if err != nil {
			return false
		}
		contentType = "application/problem+json"
		body = string(raw) + "\n"
	default:
		return false
	}
	if contentType != "" {
		w.Header().Set("Content-Type", contentType)
	} else {
		w.Header().Del("Content-Type")
	}
	w.WriteHeader(status)
	if body != "" {
		if _, err := w.Write([]byte(body)); err != nil {
			s.log.Debug("writing error", "error", err)
		}
	}
	return true
}
