package emulator

import (
	"bytes"
	"net/http"
	"strconv"
)

// consoleAccount is one account of the console's index.
type consoleAccount struct {
	CustomerID int64
	Link       string
}

// serveConsoleIndex answers /console for several accounts: the accounts
// whose consoles the credentials open (all of them with the console
// password), or straight the one account when they open only one. Which
// other accounts exist is not shown to credentials that open none of them.
func (a *Accounts) serveConsoleIndex(w http.ResponseWriter, r *http.Request) {
	var open []consoleAccount
	for _, s := range a.servers {
		if s.consoleAuthorized(r) {
			id := s.opts.CustomerID
			open = append(open, consoleAccount{CustomerID: id, Link: consoleBase + "/" + strconv.FormatInt(id, 10)})
		}
	}
	switch len(open) {
	case 0:
		refuseConsole(w, a.servers[0].opts)
		return
	case 1:
		http.Redirect(w, r, open[0].Link, http.StatusSeeOther)
		return
	}
	var buf bytes.Buffer
	if err := consoleTemplates.ExecuteTemplate(&buf, "index", open); err != nil {
		a.servers[0].log.Error("rendering the console's index", "error", err)
		http.Error(w, "the console could not render this page; the emulator's log says why", http.StatusInternalServerError)
		return
	}
	writeConsoleHeaders(w)
	_, _ = w.Write(buf.Bytes())
}
