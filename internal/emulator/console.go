package emulator

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// The console: read-only HTML pages at /console that show a person what
// an account holds after a run (its lists and their contacts counted by
// status, a list's contacts, one contact's last status changes and what
// made each, the last requests served), rendered on the server with
// html/template and no script. It is the emulator's own page, not the
// service's interface: its routes are the one exception to "every route
// is documented in the OpenAPI fragments" (openapi_test.go), and they live
// under /console, apart from /rest/{customerid}/.
//
// It takes the account's own credentials (HTTP Basic, or a bearer token
// for a client that can send one), or, for any user name, the console
// password (Options.ConsolePassword, rms-emulator -console-password):
// a browser cannot send a bearer token, so an account reached only by
// token or OAuth 2.0 is looked at with that password.

// consoleBase is where the console is served.
const consoleBase = "/console"

// consolePageSize is how many contacts (or lists) a page shows.
const consolePageSize = 50

// consoleAPI serves the console of one account.
type consoleAPI struct {
	*base
	// served is the ring of the last requests, which the Server records.
	served *requestLog
	// authorized reports whether a request's credentials open this
	// account's console.
	authorized func(*http.Request) bool
}

func (s *consoleAPI) registerConsole() {
	s.handle("GET "+consoleBase, s.guard(s.redirectToAccount))
	s.handle("GET "+consoleBase+"/{customerid}", s.guard(s.listsPage))
	s.handle("GET "+consoleBase+"/{customerid}/lists/{id}", s.guard(s.listPage))
	s.handle("GET "+consoleBase+"/{customerid}/lists/{id}/contact", s.guard(s.contactPage))
	s.handle("GET "+consoleBase+"/{customerid}/requests", s.guard(s.requestsPage))
}

// consolePage is what a page handler answers: the template to render with
// its data, or an error to show.
type consolePage struct {
	name string
	data any
	// status and message, when status is not 0, answer an error page.
	status  int
	message string
}

func consoleError(status int, format string, args ...any) consolePage {
	return consolePage{status: status, message: fmt.Sprintf(format, args...)}
}

// guard checks the credentials and the account, then renders the page h
// returns. The time from the request to the rendered page is sent in a
// Server-Timing header (render;dur=milliseconds), which the browser test
// asserts on.
func (s *consoleAPI) guard(h func(*http.Request) consolePage) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if !s.authorized(r) {
			refuseConsole(w, s.opts)
			return
		}
		var page consolePage
		if id := r.PathValue("customerid"); id != "" && id != strconv.FormatInt(s.opts.CustomerID, 10) {
			page = consoleError(http.StatusNotFound, "This emulator serves no account %q to these credentials.", id)
		} else {
			page = h(r)
		}
		if page.name == "redirect" {
			http.Redirect(w, r, page.data.(string), http.StatusSeeOther)
			return
		}
		s.render(w, page, start)
	}
}

// render writes page whole, after timing it.
func (s *consoleAPI) render(w http.ResponseWriter, page consolePage, start time.Time) {
	status := http.StatusOK
	name, data := page.name, page.data
	if page.status != 0 {
		status, name = page.status, "error"
		data = consoleErrorData{consoleFrame: s.frame(""), Status: status, Text: http.StatusText(status), Message: page.message}
	}
	var buf bytes.Buffer
	if err := consoleTemplates.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Error("rendering a console page", "page", name, "error", err)
		http.Error(w, "the console could not render this page; the emulator's log says why", http.StatusInternalServerError)
		return
	}
	writeConsoleHeaders(w)
	w.Header().Set("Server-Timing", fmt.Sprintf("render;dur=%.3f", float64(time.Since(start).Microseconds())/1000))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeConsoleHeaders sets what every console answer carries: HTML that
// nothing caches (it shows account data), runs no script and is framed
// by no other page.
func writeConsoleHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// consoleAuthorized reports whether r's credentials open the console of
// the account: its own credentials, or the console password with any
// user name.
func (s *Server) consoleAuthorized(r *http.Request) bool {
	p := credentialsOf(r)
	if s.accepts(p) {
		return true
	}
	pw := s.opts.ConsolePassword
	return pw != "" && p.basic && subtle.ConstantTimeCompare([]byte(p.pass), []byte(pw)) == 1
}

// refuseConsole answers 401 with a Basic challenge, so that a browser asks
// for a user name and password, and says which ones open the console.
func refuseConsole(w http.ResponseWriter, o Options) {
	writeConsoleHeaders(w)
	w.Header().Set("WWW-Authenticate", `Basic realm="rms-emulator console", charset="UTF-8"`)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	msg := "The emulator's console needs the account's user name and password"
	switch {
	case o.ConsolePassword != "":
		msg += ", or any user name with the console password (-console-password)."
	case o.Username == "":
		msg = "This account accepts only bearer tokens, which a browser cannot send: start rms-emulator with -console-password and sign in with any user name and that password."
	default:
		msg += " (-username, -password)."
	}
	_, _ = fmt.Fprintln(w, msg)
}

// redirectToAccount answers /console with the account's lists.
func (s *consoleAPI) redirectToAccount(*http.Request) consolePage {
	return consolePage{name: "redirect", data: consoleBase + "/" + strconv.FormatInt(s.opts.CustomerID, 10)}
}

// consoleFrame is what every page's frame shows: the account and where the
// navigation goes.
type consoleFrame struct {
	Title      string
	CustomerID int64
	Home       string // the account's lists
	Requests   string // the last requests
}

func (s *consoleAPI) frame(title string) consoleFrame {
	home := consoleBase + "/" + strconv.FormatInt(s.opts.CustomerID, 10)
	return consoleFrame{Title: title, CustomerID: s.opts.CustomerID, Home: home, Requests: home + "/requests"}
}

type consoleErrorData struct {
	consoleFrame
	Status  int
	Text    string
	Message string
}
