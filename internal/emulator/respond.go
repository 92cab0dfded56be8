package emulator

import (
	"encoding/json"
	"net/http"
)

// writeJSON answers status with v encoded as JSON. It marshals before writing
// the header so that an encoding failure still yields a proper 500.
func (s *base) writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.log.Error("encoding response", "error", err)
		status = http.StatusInternalServerError
		body = []byte(`{"status":500,"code":"INTERNAL_ERROR","message":"encoding the response failed"}`)
	}
	s.writeJSONBody(w, status, body)
}

// writeJSONBody answers status with body, JSON encoded already.
func (s *base) writeJSONBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", s.jsonContentTypeFor())
	w.WriteHeader(status)
	if _, err := w.Write(append(body, '\n')); err != nil {
		s.log.Debug("writing response", "error", err)
	}
}
