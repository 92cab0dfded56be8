package emulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// consoleGet serves a console page to h with opts (default credentials
// unless an option changes them), as a browser asks for it.
func consoleGet(t *testing.T, h http.Handler, path string, opts ...reqOption) *httptest.ResponseRecorder {
	t.Helper()
	opts = append([]reqOption{withHeader("Accept", "text/html")}, opts...)
	return do(t, h, http.MethodGet, path, nil, opts...)
}

// wantPage checks a console answer: the status, HTML, a render time, and
// each of wants in the body.
func wantPage(t *testing.T, rec *httptest.ResponseRecorder, status int, wants ...string) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body: %.500s", rec.Code, status, rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q, want HTML", ct)
	}
	if st := rec.Header().Get("Server-Timing"); !regexp.MustCompile(`^render;dur=\d+\.\d{3}$`).MatchString(st) {
		t.Errorf("Server-Timing %q, want render;dur=<ms>", st)
	}
	for _, w := range wants {
		if !strings.Contains(rec.Body.String(), w) {
			t.Errorf("the page lacks %q; body: %.3000s", w, rec.Body.String())
		}
	}
}

// The account's own credentials open its console, and so does the console
// password with any user name; an account reached only by token is opened
// by a browser with that password, by curl with the token. Everything else
// is 401 with a Basic challenge that says what to give.
func TestConsoleCredentials(t *testing.T) {
	basic := New(Options{ConsolePassword: "look"})
	tokenOnly := New(Options{Token: "tok", ConsolePassword: "look"})
	tokenNoPassword := New(Options{Token: "tok"})
	for _, tc := range []struct {
		name   string
		s      *Server
		opts   []reqOption
		status int
		says   string
	}{
		{"the account's Basic credentials", basic, nil, http.StatusOK, ""},
		{"the console password, any user", basic, []reqOption{withAuth("anyone", "look")}, http.StatusOK, ""},
		{"no credentials", basic, []reqOption{withoutAuth()}, http.StatusUnauthorized, "console password"},
		{"a wrong password", basic, []reqOption{withAuth(DefaultUsername, "nope")}, http.StatusUnauthorized, "console password"},
		{"token-only: the console password", tokenOnly, []reqOption{withAuth("me", "look")}, http.StatusOK, ""},
		{"token-only: the token", tokenOnly, []reqOption{withHeader("Authorization", "Bearer tok")}, http.StatusOK, ""},
		{"token-only without a console password", tokenNoPassword, []reqOption{withAuth("me", "look")}, http.StatusUnauthorized, "-console-password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := consoleGet(t, tc.s, "/console/1000", tc.opts...)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body.String())
			}
			if tc.status == http.StatusUnauthorized {
				if got := rec.Header().Get("WWW-Authenticate"); !strings.HasPrefix(got, "Basic ") {
					t.Errorf("WWW-Authenticate %q, want a Basic challenge a browser answers", got)
				}
				if !strings.Contains(rec.Body.String(), tc.says) {
					t.Errorf("the refusal %q does not mention %q", rec.Body.String(), tc.says)
				}
			}
		})
	}
	// /console leads to the account; another customer id is not served.
	rec := consoleGet(t, basic, "/console")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/console/1000" {
		t.Errorf("/console answered %d to %q, want 303 to /console/1000", rec.Code, rec.Header().Get("Location"))
	}
	wantPage(t, consoleGet(t, basic, "/console/2000"), http.StatusNotFound, "no account")
}

// The pages show what the account holds: lists counted by status, a list's
// contacts a page at a time or found by originalId or e-mail address, a contact's changes with the
// User-Agent of the call or the import batch that made each, and the last
// requests; values any client chooses are escaped.
func TestConsolePages(t *testing.T) {
	s := New(Options{})
	list := idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "Newsletter <b>"}))
	for i := range 120 {
		c := map[string]any{"originalId": fmt.Sprintf("c%03d", i), "properties": map[string]any{"email": fmt.Sprintf("user%03d@example.com", i)}}
		wantStatus(t, do(t, s, http.MethodPost, "/rest/1000/lists/"+list+"/contacts", c, withHeader("User-Agent", "Terraform/1.11.4 terraform-provider-rms/0.1.0")), http.StatusCreated)
	}
	evil := `<script>alert(1)</script>/..`
	wantStatus(t, do(t, s, http.MethodPost, "/rest/1000/lists/"+list+"/contacts", map[string]any{"originalId": evil}), http.StatusCreated)
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+list+"/contacts/c007/subscriptionstatus",
		map[string]any{"status": "UNSUBSCRIBED"}, withHeader("User-Agent", "hosted-optout-page/3.1")), http.StatusOK)
	batch := runImport(t, s, list, map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "UNSUBSCRIBE"}, []byte("originalId\nc008\nc009\n"))
	wantStatus(t, do(t, s, http.MethodPut, "/rest/1000/lists/"+list+"/contacts/c008/subscriptionstatus",
		map[string]any{"mobileStatus": "UNSUBSCRIBED"}, withHeader("User-Agent", "crm-sync/2.0")), http.StatusOK)

	t.Run("lists", func(t *testing.T) {
		wantPage(t, consoleGet(t, s, "/console/1000"), http.StatusOK,
			"Newsletter &lt;b&gt;", `href="/console/1000/lists/`+list+`"`,
			`<td class="n">121</td><td class="n">118</td><td class="n">3</td><td class="n">0</td><td class="n">120</td><td class="n">1</td>`)
	})
	t.Run("a list, paged", func(t *testing.T) {
		rec := consoleGet(t, s, "/console/1000/lists/"+list+"?page=3")
		wantPage(t, rec, http.StatusOK, "c100", "c119", "page 3 of 3", "&lt;script&gt;", "All 121 contacts")
		if strings.Contains(rec.Body.String(), "c099<") || strings.Contains(rec.Body.String(), "<script>alert") {
			t.Error("page 3 shows a contact of page 2, or an unescaped originalId")
		}
	})
	t.Run("a list, searched", func(t *testing.T) {
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"?q=USER110@Example.com"), http.StatusOK,
			"1 contact whose originalId", ">c110<", "user110@example.com")
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"?q=c050"), http.StatusOK, "1 contact whose originalId", ">c050<")
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"?q=c05"), http.StatusOK, "0 contacts whose originalId")
	})
	t.Run("a contact's history", func(t *testing.T) {
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"/contact?originalId=c007"), http.StatusOK,
			"hosted-optout-page/3.1", "/rest/1000/lists/"+list+"/contacts/c007/subscriptionstatus",
			"Terraform/1.11.4 terraform-provider-rms/0.1.0", "(new contact)")
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"/contact?originalId=c008"), http.StatusOK,
			"crm-sync/2.0", "(UNSUBSCRIBE), batch "+batch)
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"/contact?"+url.Values{"originalId": {evil}}.Encode()), http.StatusOK,
			"&lt;script&gt;alert(1)&lt;/script&gt;/..")
		wantPage(t, consoleGet(t, s, "/console/1000/lists/"+list+"/contact?originalId=nobody"), http.StatusNotFound, "no contact")
		wantPage(t, consoleGet(t, s, "/console/1000/lists/999999/contact?originalId=c007"), http.StatusNotFound, "no list")
	})
	t.Run("the last requests", func(t *testing.T) {
		rec := consoleGet(t, s, "/console/1000/requests")
		wantPage(t, rec, http.StatusOK, "crm-sync/2.0", "/rest/1000/lists/"+list+"/contacts/c008/subscriptionstatus")
		if strings.Contains(rec.Body.String(), "<code>/console") {
			t.Error("the console's own pages are listed among the requests")
		}
	})
}

// The request log keeps the last requestLogLen requests, newest first.
func TestRequestLogIsBounded(t *testing.T) {
	var l requestLog
	for i := range requestLogLen + 50 {
		l.record(ServedRequest{Path: fmt.Sprint("/p", i), UserAgent: strings.Repeat("x", 1000)})
	}
	got := l.last()
	if len(got) != requestLogLen || got[0].Path != fmt.Sprint("/p", requestLogLen+49) || got[len(got)-1].Path != "/p50" {
		t.Fatalf("%d requests from %s to %s, want %d from /p%d to /p50", len(got), got[0].Path, got[len(got)-1].Path, requestLogLen, requestLogLen+49)
	}
	if len(got[0].UserAgent) > maxCauseText+len("…") {
		t.Errorf("a User-Agent of %d bytes is kept", len(got[0].UserAgent))
	}
}

// With several accounts, each console is served by its own account, and
// /console lists the accounts the credentials open.
func TestConsoleOfSeveralAccounts(t *testing.T) {
	a := New(Options{ConsolePassword: "look"})
	b := New(Options{CustomerID: 2000, Username: "team-b", Password: "pw-b", ConsolePassword: "look"})
	front, err := NewAccounts(a, b)
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, do(t, b, http.MethodPost, "/rest/2000/lists", map[string]any{"name": "team B's list"}, withAuth("team-b", "pw-b")), http.StatusCreated)
	wantPage(t, consoleGet(t, front, "/console/2000", withAuth("team-b", "pw-b")), http.StatusOK, "team B&#39;s list")
	if rec := consoleGet(t, front, "/console/2000"); rec.Code != http.StatusUnauthorized {
		t.Errorf("account 1000's credentials on account 2000's console: %d, want 401", rec.Code)
	}
	rec := consoleGet(t, front, "/console", withAuth("x", "look"))
	for _, want := range []string{`href="/console/1000"`, `href="/console/2000"`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("the index lacks %s: %s", want, rec.Body.String())
		}
	}
	if rec := consoleGet(t, front, "/console", withAuth("team-b", "pw-b")); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/console/2000" {
		t.Errorf("credentials of one account: %d to %q, want 303 to /console/2000", rec.Code, rec.Header().Get("Location"))
	}
}
