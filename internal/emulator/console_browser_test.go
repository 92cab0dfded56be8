package emulator

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// consoleScreenshotEnv, when set, names a PNG file the browser test writes
// a screenshot of the lists page to: the emulator guide's picture
// (docs/images/emulator-console.png) is made this way.
const consoleScreenshotEnv = "RMS_CONSOLE_SCREENSHOT"

// consoleBrowserContacts is the size of the list the browser test looks at.
const consoleBrowserContacts = 100_000

// consoleRenderBudget is how long the server may take to render a console
// page on the list of consoleBrowserContacts.
const consoleRenderBudget = 200 * time.Millisecond

// A person opens the console in a real browser on an account with a list of
// 100,000 contacts: the lists page counts them by status, a search finds a
// contact by its e-mail address, and a contact's page names the hosted opt-out
// page that unsubscribed it. The server renders each page within
// consoleRenderBudget (read from its own Server-Timing, not the
// browser's; the best of three when the first is over), and the pages
// fetch nothing and run no script (TestPagesInBrowser runs it, in a tab of
// its browser).
func consoleInBrowser(t *testing.T, browser context.Context) {
	s := New(Options{})
	t.Cleanup(s.Close)
	list := mustParseID(t, idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "Newsletter"})))
	small := mustParseID(t, idOf(t, mustCreate(t, s, "/rest/1000/lists", map[string]any{"name": "Customers"})))
	seed := make([]Contact, consoleBrowserContacts)
	for i := range seed {
		seed[i] = Contact{OriginalID: fmt.Sprintf("c%06d", i), Properties: map[string]string{"email": fmt.Sprintf("user%06d@example.com", i)}}
	}
	if err := s.UpsertContacts(list, seed); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertContacts(small, seed[:3]); err != nil {
		t.Fatal(err)
	}
	listPath := "/rest/1000/lists/" + strconv.FormatInt(list, 10)
	batch := runImport(t, s, strconv.FormatInt(list, 10), map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "UNSUBSCRIBE"},
		[]byte("originalId\nc099990\nc099991\nc099992\nc099993\nc099994\n"))
	wantStatus(t, do(t, s, http.MethodPut, listPath+"/contacts/c099995/subscriptionstatus",
		map[string]any{"status": "UNSUBSCRIBED"}, withHeader("User-Agent", "hosted-optout-page/3.1")), http.StatusOK)
	wantStatus(t, do(t, s, http.MethodPut, listPath+"/contacts/c099995/subscriptionstatus",
		map[string]any{"mobileStatus": "UNSUBSCRIBED"}, withHeader("User-Agent", "Terraform/1.11.4 terraform-provider-rms/0.1.0")), http.StatusOK)
	// The garbage of seeding is collected now, so that the timings below
	// are the pages' and not a collection the seeding left due.
	runtime.GC()

	// The server's own timing of each console page the browser asks for.
	var mu sync.Mutex
	rendered := map[string][]time.Duration{} // by request URI, every time served
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeHTTP(w, r)
		if !strings.HasPrefix(r.URL.Path, consoleBase+"/") {
			return
		}
		ms, ok := strings.CutPrefix(w.Header().Get("Server-Timing"), "render;dur=")
		d, err := strconv.ParseFloat(ms, 64)
		mu.Lock()
		defer mu.Unlock()
		if !ok || err != nil {
			d = -1
		}
		rendered[r.URL.RequestURI()] = append(rendered[r.URL.RequestURI()], time.Duration(d*float64(time.Millisecond)))
	}))
	t.Cleanup(srv.Close)
	srvURL, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}

	var elsewhere []string
	var scripts int
	ctx, cancelTab := chromedp.NewContext(browser, chromedp.WithListener(func(ev any) {
		e, ok := ev.(*network.EventRequestWillBeSent)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if u, err := url.Parse(e.Request.URL); err != nil || u.Host != srvURL.Host {
			elsewhere = append(elsewhere, e.Request.URL)
		}
		if e.Type == network.ResourceTypeScript {
			scripts++
		}
	}))
	defer cancelTab()
	// A bound for hangs, not speed (see swaggerPageInBrowser).
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()

	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(DefaultUsername+":"+DefaultPassword))
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	listRow := fmt.Sprintf(`#lists tr[data-list="%d"]`, list)
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Authorization": basic}}); err != nil {
		t.Fatalf("giving the browser the account's credentials: %v", err)
	}
	// Each step acts, waits for what it needs, then reads the texts the
	// assertions below look at.
	texts := map[string]string{}
	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
		read    map[string]string // key -> selector
	}{
		{"open the lists page", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(srv.URL + "/console"),
			chromedp.WaitVisible(css(listRow)),
		}, map[string]string{"lists": listRow}},
		{"open the list and search by e-mail address", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(listRow + ` a`)),
			chromedp.WaitVisible(css(`#contacts`)),
			chromedp.SendKeys(css(`input[name=q]`), "USER099995@Example.com"),
			chromedp.Submit(css(`input[name=q]`)),
			chromedp.WaitVisible(css(`#contacts a[href$="originalId=c099995"]`)),
		}, map[string]string{"matched": `#matched`, "results": `#contacts tbody`}},
		{"open a contact's history", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`#contacts a[href$="originalId=c099995"]`)),
			chromedp.WaitVisible(css(`#history`)),
		}, map[string]string{"history": `#history`}},
	}
	for _, step := range steps {
		err := chromedp.Do(ctx, step.actions...)
		for key, sel := range step.read {
			if err == nil {
				texts[key], err = chromedp.Run(ctx, chromedp.Text(css(sel)))
			}
		}
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("%w (the page never reached the state this step waits for)", err)
			}
			t.Fatalf("%s: %v", step.name, err)
		}
	}
	listsText, matched, results, history := texts["lists"], texts["matched"], texts["results"], texts["history"]

	// Lists: 100,000 contacts, 6 unsubscribed from e-mail (5 by the
	// import, 1 by the opt-out page), 1 from mobile.
	if got, want := strings.Fields(listsText), []string{"Newsletter", strconv.FormatInt(list, 10), "100000", "99994", "6", "0", "99999", "1", "0"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the list's row reads %q, want %q", got, want)
	}
	if !strings.Contains(matched, "1 contact whose") || !strings.Contains(results, "c099995") || !strings.Contains(results, "user099995@example.com") {
		t.Errorf("the search for USER099995@Example.com shows %q with rows %q, want the contact c099995", matched, results)
	}
	for _, want := range []string{"hosted-optout-page/3.1", "Terraform/1.11.4 terraform-provider-rms/0.1.0", "(new contact)", "the emulator's Go API"} {
		if !strings.Contains(history, want) {
			t.Errorf("the contact's history lacks %q: %q", want, history)
		}
	}
	if strings.Contains(history, "batch "+batch) {
		t.Errorf("c099995's history names the import, which did not change it: %q", history)
	}

	if path := os.Getenv(consoleScreenshotEnv); path != "" {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/console/1000"), chromedp.WaitVisible(css(listRow))); err != nil {
			t.Fatalf("opening the lists page for the screenshot: %v", err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("taking the screenshot: %v", err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The timing is the server's own, but the machine is shared (make test
	// runs this beside the acceptance suite, with -race): a page whose
	// render took longer than the budget is asked for twice more, and the
	// fastest of its renders is held to the budget. A page that is slow
	// by its own work is slow every time.
	mu.Lock()
	var retry []string
	for uri, ds := range rendered {
		if slices.Min(ds) > consoleRenderBudget {
			retry = append(retry, uri)
		}
	}
	mu.Unlock()
	for _, uri := range retry {
		for range 2 {
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+uri), chromedp.WaitReady(css(`main`))); err != nil {
				t.Fatalf("asking for %s again: %v", uri, err)
			}
		}
	}

	mu.Lock()
	defer mu.Unlock()
	if len(elsewhere) > 0 {
		t.Errorf("the console fetched from outside the emulator: %q", elsewhere)
	}
	if scripts > 0 {
		t.Errorf("the console loaded %d scripts, want none", scripts)
	}
	pages := map[string]bool{"/console/1000": false, "search": false, "history": false}
	for uri, ds := range rendered {
		d := slices.Min(ds)
		switch {
		case uri == "/console/1000":
			pages[uri] = true
		case strings.Contains(uri, "q=USER099995"):
			pages["search"] = true
		case strings.Contains(uri, "/contact?"):
			pages["history"] = true
		}
		if d < 0 {
			t.Errorf("%s: no Server-Timing render time", uri)
		} else if d > consoleRenderBudget {
			t.Errorf("%s: the server took at least %s to render it (%v), more than %s", uri, d, ds, consoleRenderBudget)
		}
		t.Logf("%s rendered in %v", uri, ds)
	}
	for page, seen := range pages {
		if !seen {
			t.Errorf("the browser never asked for the %s page (asked: %v)", page, rendered)
		}
	}
}
