package emulator

import (
	_ "embed"
	"net/http"
)

// openAPIDocument describes exactly what this emulator serves; later work
// that adds routes adds their paths here (a test checks both directions).
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument returns the OpenAPI 3.0 document served at /mail/swagger.
func OpenAPIDocument() []byte {
	return append([]byte(nil), openAPIDocument...)
}

// serveOpenAPI answers GET /mail/swagger. It needs no credentials: it is
// documentation, as on the service, and holds no account data.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", jsonContentType)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(openAPIDocument); err != nil {
		s.log.Debug("writing the OpenAPI document", "error", err)
	}
}
