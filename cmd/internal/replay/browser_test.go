package replay

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest/chromium"
)

// The frontend of the browser test: a page with its style, its script and
// a logo from another host, whose script logs in to the mock, reads the
// user, saves the profile with the session-token header, makes a client,
// makes an app with the api key, reads the platforms, and reports to an
// analytics API of another host. What it saw goes into #result, and #done
// appears when it has finished.
const (
	frontendPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>frontend</title><link rel="stylesheet" href="/style.css"></head>
<body><img id="logo" alt="logo"><pre id="result"></pre><script src="/app.js"></script></body></html>
`
	frontendScript = `(async () => {
  const q = new URLSearchParams(location.search);
  const api = q.get("api");
  document.getElementById("logo").src = q.get("cdn") + "/logo.png";
  const out = {};
  const call = async (name, path, init) => {
    const res = await fetch(api + path, init);
    out[name] = res.status;
    return res.status === 200 ? res.json() : null;
  };
  try {
    const session = await call("login", "/v1/sessions", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({email: q.get("email"), password: q.get("password")}),
    });
    const auth = {"session-token": session.token};
    const json = {...auth, "Content-Type": "application/json"};
    const me = await call("get", "/v1/users/" + session.userId, {headers: auth});
    await call("put", "/v1/users/" + session.userId, {method: "PUT", headers: json, body: JSON.stringify({
      email: me.email, firstName: "Browser", lastName: me.lastName, subscribeWelcome: me.subscribeWelcome,
      subscribeBlog: me.subscribeBlog, subscribeHowto: me.subscribeHowto, subscribeOnboarding: me.subscribeOnboarding,
      timezone: me.timezone, password: null})});
    await call("client", "/v1/clients", {method: "POST", headers: json, body: JSON.stringify({
      name: "Browser Ltd", addressLine1: "1 Web Way", addressCity: "London", addressPostcode: "EC1A 1BB",
      addressCountry: "United Kingdom", currency: {id: Number(q.get("currency"))}, terms: "I agree"})});
    await call("app", "/v1/apps", {method: "POST",
      headers: {"Authorization": "api-key " + q.get("key"), "Content-Type": "application/json"},
      body: JSON.stringify({name: "Browser Game", platform: {id: Number(q.get("platform"))}, nextplan: {id: Number(q.get("plan"))}})});
    await call("platforms", "/v1/platforms", {});
    await fetch(q.get("analytics") + "/collect", {method: "POST", mode: "no-cors", body: JSON.stringify({event: "saved", token: session.token})});
  } catch (e) {
    out.error = String(e);
  }
  document.getElementById("result").textContent = JSON.stringify(out);
  const done = document.createElement("p");
  done.id = "done";
  document.body.appendChild(done);
})();
`
)

// browserRecording is what the browser did and the HAR it was saved as.
type browserRecording struct {
	har     []byte
	others  *hits    // the page's host, the logo's and the analytics API's
	secrets []string // the recording's credentials, as the test knows them
}

// recordInBrowser loads the frontend in headless Chromium against a mock
// of the foreign seed, and saves what the browser sent and received as a
// HAR built from the DevTools protocol's network events, as the developer
// tools' "Save all as HAR" does.
func recordInBrowser(t *testing.T) browserRecording {
	t.Helper()
	others := &hits{}
	serve := func(h http.HandlerFunc) *httptest.Server {
		s := httptest.NewServer(others.wrap(h))
		t.Cleanup(s.Close)
		return s
	}
	page := serve(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, frontendScript)
		case "/style.css":
			w.Header().Set("Content-Type", "text/css")
			io.WriteString(w, "body { font-family: sans-serif; }")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, frontendPage)
		}
	})
	cdn := serve(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	analytics := serve(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	m := mocktest.MustStart(t, mocktest.Options{Fixtures: fixtures.Foreign()})

	browser := chromium.Start(t)

	net := &networkLog{requests: map[network.RequestID]*loggedRequest{}}
	if err := chromedp.Listen(browser, net.event); err != nil {
		t.Fatalf("chromium (%s): %v", chromium.Path, err)
	}
	q := url.Values{"api": {m.Origin()}, "email": {foreignEmailA}, "password": {foreignPassA}, "key": {foreignKeyA},
		"currency": {"1015"}, "platform": {"1008"}, "plan": {"1057"}, "cdn": {cdn.URL}, "analytics": {analytics.URL}}
	if err := chromedp.Do(browser, chromedp.Navigate(page.URL+"/?"+q.Encode()), chromedp.WaitVisible(chromedp.CSS("#done"))); err != nil {
		t.Fatalf("load the frontend: %v", err)
	}
	result, err := chromedp.Run(browser, chromedp.Text(chromedp.CSS("#result")))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the page saw %s", result)
	var saw map[string]any
	if json.Unmarshal([]byte(result), &saw) != nil || saw["error"] != nil || saw["put"] != float64(200) || saw["app"] != float64(200) || saw["client"] != float64(200) {
		t.Fatalf("the frontend did not run through: %s", result)
	}
	har := net.har(t, browser)
	var token string
	for _, e := range net.requests {
		if strings.HasSuffix(e.url, "/v1/sessions") && e.status == 200 {
			var s struct{ Token string }
			json.Unmarshal(e.answer, &s)
			token = s.Token
		}
	}
	if token == "" {
		t.Fatal("the HAR holds no session token")
	}
	return browserRecording{har: har, others: others, secrets: []string{foreignPassA, foreignKeyA, token}}
}

// networkLog gathers the network events of a tab.
type networkLog struct {
	mu       sync.Mutex
	requests map[network.RequestID]*loggedRequest
	order    []network.RequestID
}

type loggedRequest struct {
	started         time.Time
	method, url     string
	header          map[string]any
	postData        []byte
	status          int
	mimeType        string
	responseHeaders map[string]any
	finished        bool
	answer          []byte
}

// event is the tab's listener: it only records (chromedp.Listen's rules).
func (n *networkLog) event(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		r := &loggedRequest{started: time.Now(), method: e.Request.Method, url: e.Request.URL, header: e.Request.Headers}
		for _, p := range e.Request.PostDataEntries {
			r.postData = append(r.postData, p.Bytes...)
		}
		if _, seen := n.requests[e.RequestID]; !seen {
			n.order = append(n.order, e.RequestID)
		}
		n.requests[e.RequestID] = r
	case *network.EventResponseReceived:
		if r, ok := n.requests[e.RequestID]; ok {
			r.status, r.mimeType, r.responseHeaders = int(e.Response.Status), e.Response.MimeType, e.Response.Headers
		}
	case *network.EventLoadingFinished:
		if r, ok := n.requests[e.RequestID]; ok {
			r.finished = true
		}
	}
}

// har reads each answer's body from the browser and writes the log as a
// HAR 1.2 file.
func (n *networkLog) har(t *testing.T, browser context.Context) []byte {
	t.Helper()
	n.mu.Lock()
	ids := append([]network.RequestID(nil), n.order...)
	n.mu.Unlock()
	pairs := func(h map[string]any) []map[string]string {
		var out []map[string]string
		for k, v := range h {
			out = append(out, map[string]string{"name": k, "value": strings.TrimSpace(strings.Trim(jsonText(v), `"`))})
		}
		sort.Slice(out, func(i, j int) bool { return out[i]["name"] < out[j]["name"] })
		return out
	}
	var entries []map[string]any
	for _, id := range ids {
		n.mu.Lock()
		r := n.requests[id]
		n.mu.Unlock()
		if r.finished {
			if body, err := chromedp.Call(browser, network.GetResponseBody, network.GetResponseBodyParams{RequestID: id}); err == nil {
				r.answer = body.Body
			}
		}
		request := map[string]any{"method": r.method, "url": r.url, "httpVersion": "HTTP/1.1", "headers": pairs(r.header),
			"queryString": []any{}, "cookies": []any{}, "headersSize": -1, "bodySize": len(r.postData)}
		if len(r.postData) > 0 {
			request["postData"] = map[string]any{"mimeType": jsonText(r.header["Content-Type"]), "text": string(r.postData)}
		}
		content := map[string]any{"size": len(r.answer), "mimeType": r.mimeType, "text": base64.StdEncoding.EncodeToString(r.answer), "encoding": "base64"}
		entries = append(entries, map[string]any{"startedDateTime": r.started.UTC().Format(time.RFC3339Nano), "time": 0, "request": request,
			"response": map[string]any{"status": r.status, "statusText": "", "httpVersion": "HTTP/1.1", "headers": pairs(r.responseHeaders),
				"cookies": []any{}, "content": content, "redirectURL": "", "headersSize": -1, "bodySize": len(r.answer)},
			"cache": map[string]any{}, "timings": map[string]any{"send": 0, "wait": 0, "receive": 0}})
	}
	b, err := json.MarshalIndent(map[string]any{"log": map[string]any{"version": "1.2",
		"creator": map[string]any{"name": "chromium via chromedp", "version": "1"}, "pages": []any{}, "entries": entries}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonText is a header value of the DevTools protocol as text.
func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// A HAR that headless Chromium wrote of a frontend's session against the
// mock: replayed against a fresh mock it finds nothing, and sends nothing
// of the page's own files, its logo from another host nor its analytics;
// replayed against a mock with a defect on a path the session used it
// reports a divergence whose reproducer fails there and passes against the
// mock. No credential of the recording is in anything either run writes.
func TestBrowserHARReplay(t *testing.T) {
	testenv.SkipShort(t, "starts Chromium")
	rec := recordInBrowser(t)
	recording := writeFile(t, "browser.har", rec.har)
	before := len(rec.others.seen())
	if before < 5 {
		t.Fatalf("the counters saw %d of the page's requests to its host, the logo's and the analytics', not the 5 the page sent", before)
	}

	good := runReplay(t, mocktarget.MustStart(t, mocktest.Options{}), recording)
	t.Logf("against the mock:\n%s\n%s", good.stderr, good.stdout)
	if good.code != 0 {
		t.Fatalf("exit %d against the mock, want 0", good.code)
	}
	for _, want := range []string{"/v1/sessions: matched", "/v1/users/1101: matched", "/v1/clients: matched", "/v1/apps: matched",
		"/v1/platforms: matched", "/app.js: skipped", "/logo.png: skipped", "/collect: skipped"} {
		if !strings.Contains(good.stderr, want) {
			t.Errorf("the replay does not say %q", want)
		}
	}
	if after := rec.others.seen(); len(after) != before {
		t.Errorf("the replay sent %v to a host that is not the API", after[before:])
	}
	if n := strings.Count(good.stdout, "→ account"); n != 1 || !strings.Contains(good.stdout, foreignEmailA+", user 1101 → account A") {
		t.Errorf("the one account of the recording (its login, its session token, its api key) is not mapped onto A alone:\n%s", good.stdout)
	}

	ds := testenv.Variants(t, "user-profile-not-stored")
	bad := mocktarget.MustStart(t, mocktest.Options{Servers: ds})
	r := runReplay(t, bad, recording)
	t.Logf("against user-profile-not-stored:\n%s", r.stdout)
	if r.code != 1 {
		t.Fatalf("exit %d against user-profile-not-stored, want 1\n%s", r.code, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(r.dir, "reproducers", "*.feature"))
	if len(files) == 0 {
		t.Fatal("no reproducer written")
	}
	for _, f := range files {
		if code := runFeature(t, bad, f); code != 1 {
			t.Errorf("%s: exit %d against the defect, want 1", f, code)
		}
		if code := runFeature(t, mocktarget.MustStart(t, mocktest.Options{}), f); code != 0 {
			t.Errorf("%s: exit %d against the mock, want 0", f, code)
		}
	}
	for _, run := range []replayRun{good, r} {
		if l := leaks(run.everything(t), rec.secrets); len(l) > 0 {
			t.Errorf("a recorded credential in the replay's output:\n%s", strings.Join(l, "\n"))
		}
	}
}
