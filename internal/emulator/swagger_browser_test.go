package emulator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// browserEnv names a Chromium or Chrome binary to use instead of the first
// one found on PATH.
const browserEnv = "RMS_CHROMIUM"

// findBrowser returns the headless browser the page tests drive
// (chooseBrowser). Without one it skips the test, saying how to run it,
// except where requireBrowserEnv is set (make test), where it fails: the
// page is a feature, and the gate must check it.
func findBrowser(t *testing.T) string {
	t.Helper()
	path, skip, err := chooseBrowser(os.Getenv(browserEnv), os.Getenv(requireBrowserEnv) != "", exec.LookPath)
	if err != nil {
		t.Fatal(err)
	}
	if skip != "" {
		t.Skip(skip)
	}
	return path
}

// A user opens /mail/swagger in a real browser, sees the domains, enters the
// account's credentials under Authorize and runs GET /rest/{customerid}/projects
// from the page: the call reaches this emulator and answers 200 with the
// account's data, and the page fetched nothing from anywhere else
// (TestPagesInBrowser runs it, in a tab of its browser).
func swaggerPageInBrowser(t *testing.T, browser context.Context) {
	l, err := Listen("127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	opts := l.Server.Options()
	createProjectOver(t, l.URL, opts, "shown-in-the-page")

	emulatorURL, err := url.Parse(l.URL)
	if err != nil {
		t.Fatal(err)
	}
	// Every request the page makes is seen, so one to a CDN fails the test.
	var mu sync.Mutex
	var elsewhere []string
	ctx, cancelTab := chromedp.NewContext(browser, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u, err := url.Parse(e.Request.URL)
			if err != nil || (u.Scheme != "data" && u.Host != emulatorURL.Host) {
				mu.Lock()
				elsewhere = append(elsewhere, e.Request.URL)
				mu.Unlock()
			}
		}
	}))
	defer cancelTab()
	// A bound on the whole session, so a page that never renders fails the
	// test instead of hanging it. It renders in a few seconds on a quiet
	// machine, but make test runs it beside the acceptance suite, where 30 s
	// ran out with the load above 20: the bound is for hangs, not speed.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()

	const op = `#operations-Projects-listProjects`
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	before := l.Server.Requests().ByCollection["projects"]
	// Every query waits for its element (Click for it to be visible), so
	// each step goes on as soon as the page has rendered what it needs.
	steps := []struct {
		name    string
		actions []chromedp.Action[chromedp.Void]
	}{
		{"open the page and see the domains", []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(l.URL + "/mail/swagger"),
			chromedp.WaitVisible(css(`#operations-tag-Projects`)),
			chromedp.WaitVisible(css(`#operations-tag-Lists`)),
		}},
		{"authorize with the account's credentials", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(`.auth-wrapper button.authorize`)),
			chromedp.SendKeys(css(`.modal-ux input[type=text]`), opts.Username),
			chromedp.SendKeys(css(`.modal-ux input[type=password]`), opts.Password),
			chromedp.Click(css(`.modal-ux .auth-btn-wrapper button.authorize`)),
			chromedp.Click(css(`.modal-ux button.btn-done`)),
			chromedp.WaitNotPresent(css(`.modal-ux`)),
		}},
		{"try GET /rest/{customerid}/projects", []chromedp.Action[chromedp.Void]{
			chromedp.Click(css(op + ` .opblock-summary-control`)),
			chromedp.Click(css(op + ` .try-out__btn`)),
			chromedp.SendKeys(css(op+` tr[data-param-name="customerid"] input`), fmt.Sprint(opts.CustomerID)),
			chromedp.Click(css(op + ` button.execute`)),
			chromedp.WaitVisible(css(op + ` .live-responses-table tr.response .response-col_status`)),
		}},
	}
	for _, step := range steps {
		if err := chromedp.Do(ctx, step.actions...); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("%w (the page never reached the state this step waits for)", err)
			}
			t.Fatalf("%s: %v", step.name, err)
		}
	}
	status, err := chromedp.Run(ctx, chromedp.Text(css(op+` .live-responses-table tr.response .response-col_status`)))
	if err != nil {
		t.Fatalf("reading the status shown: %v", err)
	}
	body, err := chromedp.Run(ctx, chromedp.Text(css(op+` .live-responses-table tr.response .response-col_description`)))
	if err != nil {
		t.Fatalf("reading the response shown: %v", err)
	}

	if got := strings.TrimSpace(status); got != "200" {
		t.Errorf("status shown = %q, want 200; response shown: %.300s", got, body)
	}
	if !strings.Contains(body, "shown-in-the-page") {
		t.Errorf("the response shown lacks the account's project: %.300s", body)
	}
	if after := l.Server.Requests().ByCollection["projects"]; after != before+1 {
		t.Errorf("the page made %d calls to /rest/%d/projects, want 1", after-before, opts.CustomerID)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(elsewhere) > 0 {
		t.Errorf("the page fetched from outside the emulator: %q", elsewhere)
	}
}

// createProjectOver creates a project through the emulator's HTTP
// interface, so the page has account data to show.
func createProjectOver(t *testing.T, baseURL string, opts Options, name string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/rest/%d/projects", baseURL, opts.CustomerID),
		strings.NewReader(fmt.Sprintf(`{"name":%q}`, name)))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(opts.Username, opts.Password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating project %q: status %d", name, resp.StatusCode)
	}
}
