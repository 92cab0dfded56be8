package emulator

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPagesInBrowser opens the emulator's pages in one headless browser, a
// tab each, side by side: the Swagger page (swaggerPageInBrowser) and the
// console (consoleInBrowser). Starting a browser takes about 2 s and 1.8 s
// of CPU on 2 cores, which each page's test paid for a browser of its own;
// this was the longest wait of make unit.
func TestPagesInBrowser(t *testing.T) {
	t.Parallel()
	path := findBrowser(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		// The sandbox needs namespaces that containers and root lack; the
		// browser loads only the emulator's own pages.
		chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 720),
		chromedp.UserDataDir(t.TempDir()),
	)...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	// Cleanups run once the subtests have ended, so the tabs close first.
	t.Cleanup(cancelBrowser)
	// The first Do starts the browser; it gets no deadline, which would
	// end the browser with it.
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	t.Run("swagger page", func(t *testing.T) {
		t.Parallel()
		swaggerPageInBrowser(t, browser)
	})
	t.Run("console", func(t *testing.T) {
		t.Parallel()
		consoleInBrowser(t, browser)
	})
}
