// Package chromium starts headless Chromium for the tests that drive a page
// (the mock's CORS, the replay's HAR, the HTML report), apart from
// mocktest so that the binaries that use mocktest do not link a browser
// driver.
package chromium

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path is Debian's chromium; .ci/run installs it when missing.
const Path = "/usr/bin/chromium"

// Start starts headless Chromium for a test and returns its context,
// closed when the test ends and after a minute at most. Without Chromium
// the test is skipped, or fails when CI is set (.ci/run installs it).
// opts come after the flags below (a window size).
func Start(t testing.TB, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if _, err := os.Stat(Path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and %s is missing (%v): .ci/run installs it with apt-get", Path, err)
		}
		t.Skipf("%s is missing (apt-get install chromium); CI runs this test", Path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	// The flags this machine needs (.library/env/machines/go.md): root
	// needs no-sandbox, and without the background-networking flags
	// Chromium keeps calling out to a network that is closed here.
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
	}, opts...)...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancel()
	})
	return browser
}
