package emulator

import (
	"io/fs"
	"net/http"
	"strings"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5/static"
	"github.com/swaggest/swgui/v5emb"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// swaggerUIBase is where the interactive page's own files are served. The
// emulator serves them itself from the module that embeds them, so the page
// works with no network beyond the emulator (CI machines, air-gapped
// laptops) and never runs a script from a third party next to the
// account's credentials.
const swaggerUIBase = "/mail/swagger/ui/"

// swaggerUI renders the page and serves its files. It holds no account
// data, so one serves every Server.
var swaggerUI = v5emb.NewHandlerWithConfig(swgui.Config{
	Title: "rms-emulator",
	// The page asks for the document explicitly (see wantsSwaggerPage).
	SwaggerJSON: "/mail/swagger?format=json",
	BasePath:    swaggerUIBase,
	// No "Try it out" proxy: calls go from the browser straight to the
	// emulator's own /rest paths (the document's server is "/").
	SettingsUI: map[string]string{
		// Authorization is typed per tab and forgotten with it: the page
		// must not leave an account's password in the browser's storage.
		"persistAuthorization": "false",
	},
})

// serveSwaggerPage answers GET /mail/swagger for a browser (see
// wantsSwaggerPage). Like the document it needs no credentials: the
// service serves its documentation publicly, and the calls made from the
// page carry the credentials entered with its Authorize button.
func (s *docsAPI) serveSwaggerPage(w http.ResponseWriter, r *http.Request) {
	// The handler renders the page at its base path only.
	page := r.Clone(r.Context())
	page.URL.Path = swaggerUIBase
	page.URL.RawPath = ""
	// The handler sets Content-Type: text/html; the page declares its
	// charset (UTF-8) in a meta element.
	swaggerUI.ServeHTTP(w, page)
}

// serveSwaggerUIAsset answers GET /mail/swagger/ui/{file}: a script, style
// sheet or icon of the page, compressed when the client accepts gzip. An
// unknown file is a JSON 404 like every other unknown path of the emulator.
func (s *docsAPI) serveSwaggerUIAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if !hasSwaggerUIAsset(name) {
		s.writeError(w, apierr.Errorf(http.StatusNotFound, "no such file of the interactive page: %s", name))
		return
	}
	swaggerUI.ServeHTTP(w, r)
}

// hasSwaggerUIAsset reports whether the embedded files hold name, stored
// as is (icons) or gzipped (scripts, style sheets). The stored .gz names are
// not files of the page: asking for one is a 404, not a gzip body without
// its Content-Encoding.
func hasSwaggerUIAsset(name string) bool {
	if name == "" || !fs.ValidPath(name) || strings.HasSuffix(name, ".gz") {
		return false
	}
	for _, n := range []string{name, name + ".gz"} {
		if st, err := fs.Stat(static.FS, n); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// docsAPI serves the OpenAPI document and its browsable page.
type docsAPI struct{ *base }
