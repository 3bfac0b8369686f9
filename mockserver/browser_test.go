package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest/chromium"
)

// browserPage is what a frontend developer's page does: log in with JSON,
// read the user with the session-token header, change the first name with a
// PUT. Every call needs a preflight (JSON body or a custom header). What the
// page saw goes into #result; #done appears when it has finished, so the
// test waits for an element, not for a time.
const browserPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>cors page</title></head>
<body><pre id="result"></pre>
<script>
(async () => {
  const q = new URLSearchParams(location.search);
  const api = q.get("api");
  const out = {};
  const call = async (name, path, init) => {
    const res = await fetch(api + path, init);
    out[name + "Status"] = res.status;
    return res.json();
  };
  try {
    const session = await call("login", "/v1/sessions", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({email: q.get("email"), password: q.get("password")}),
    });
    out.userId = session.userId;
    const auth = {"session-token": session.token};
    const user = await call("get", "/v1/users/" + session.userId, {headers: auth});
    const updated = await call("put", "/v1/users/" + session.userId, {
      method: "PUT",
      headers: {...auth, "Content-Type": "application/json"},
      body: JSON.stringify({
        email: user.email, firstName: q.get("firstName"), lastName: user.lastName,
        subscribeWelcome: user.subscribeWelcome, subscribeBlog: user.subscribeBlog,
        subscribeHowto: user.subscribeHowto, subscribeOnboarding: user.subscribeOnboarding,
        timezone: user.timezone,
      }),
    });
    out.firstName = updated.firstName;
    out.lastName = updated.lastName;
  } catch (e) {
    out.error = String(e);
  }
  document.getElementById("result").textContent = JSON.stringify(out);
  const done = document.createElement("p");
  done.id = "done";
  done.textContent = "done";
  document.body.appendChild(done);
})();
</script></body></html>
`

// pageResult is what browserPage writes into #result.
type pageResult struct {
	LoginStatus int    `json:"loginStatus"`
	GetStatus   int    `json:"getStatus"`
	PutStatus   int    `json:"putStatus"`
	UserID      int64  `json:"userId"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	Error       string `json:"error"`
}

// seenRequest is one request the mock received, as the browser sent it.
type seenRequest struct {
	Method, Path, Origin string
	Status               int
}

// recorder sits in front of the mock and notes every request, so the test
// can tell that the browser really preflighted and from which origin.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	seen []seenRequest
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	r.next.ServeHTTP(sw, req)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, seenRequest{Method: req.Method, Path: req.URL.Path, Origin: req.Header.Get("Origin"), Status: sw.status})
}

func (r *recorder) from(origin string) []seenRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []seenRequest
	for _, s := range r.seen {
		if s.Origin == origin {
			out = append(out, s)
		}
	}
	return out
}

// TestBrowserCrossOrigin drives headless Chromium: a page served from one
// origin logs in and updates the user on the mock at another origin. A second
// page, from an origin --cors-origins does not list, must be stopped by the
// browser before its login is even sent.
func TestBrowserCrossOrigin(t *testing.T) {

	servePage := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, browserPage)
	})
	// httptest binds 127.0.0.1; each server has its own port, so each is
	// its own origin.
	allowedPage := httptest.NewServer(servePage)
	defer allowedPage.Close()
	otherPage := httptest.NewServer(servePage)
	defer otherPage.Close()

	mock, err := mockserver.New(mockserver.Options{CORSOrigins: []string{allowedPage.URL}})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	rec := &recorder{next: mock}
	api := httptest.NewServer(rec)
	defer api.Close()

	browser := chromium.Start(t)

	runPage := func(t *testing.T, pageURL, firstName string) pageResult {
		t.Helper()
		q := url.Values{
			"api":       {api.URL},
			"email":     {emailA},
			"password":  {passA},
			"firstName": {firstName},
		}
		if err := chromedp.Do(browser,
			chromedp.Navigate(pageURL+"/?"+q.Encode()),
			chromedp.WaitVisible(chromedp.CSS("#done")),
		); err != nil {
			t.Fatalf("load %s: %v", pageURL, err)
		}
		text, err := chromedp.Run(browser, chromedp.Text(chromedp.CSS("#result")))
		if err != nil {
			t.Fatalf("read #result: %v", err)
		}
		var res pageResult
		if err := json.Unmarshal([]byte(text), &res); err != nil {
			t.Fatalf("#result %q: %v", text, err)
		}
		t.Logf("page %s saw %s", pageURL, text)
		return res
	}

	t.Run("allowed origin logs in and updates the user", func(t *testing.T) {
		got := runPage(t, allowedPage.URL, "Browser")
		want := pageResult{LoginStatus: 200, GetStatus: 200, PutStatus: 200, UserID: 1, FirstName: "Browser", LastName: "Assurance"}
		if got != want {
			t.Fatalf("page saw %+v, want %+v", got, want)
		}
		if name := firstNameOf(t, api.URL); name != "Browser" {
			t.Errorf("the mock's user 1 has firstName %q after the page's PUT, want Browser", name)
		}
		seen := rec.from(allowedPage.URL)
		for _, want := range []seenRequest{
			{Method: "OPTIONS", Path: "/v1/sessions", Status: 204},
			{Method: "POST", Path: "/v1/sessions", Status: 200},
			{Method: "OPTIONS", Path: "/v1/users/1", Status: 204},
			{Method: "PUT", Path: "/v1/users/1", Status: 200},
		} {
			want.Origin = allowedPage.URL
			if !slices.Contains(seen, want) {
				t.Errorf("the mock never received %+v; it received %+v", want, seen)
			}
		}
	})

	t.Run("unlisted origin is stopped at the preflight", func(t *testing.T) {
		got := runPage(t, otherPage.URL, "Blocked")
		if got.Error == "" || got.LoginStatus != 0 || got.PutStatus != 0 {
			t.Fatalf("page saw %+v, want a failed fetch and no status", got)
		}
		want := []seenRequest{{Method: "OPTIONS", Path: "/v1/sessions", Origin: otherPage.URL, Status: 403}}
		if seen := rec.from(otherPage.URL); !slices.Equal(seen, want) {
			t.Errorf("the mock received %+v from the unlisted origin, want only %+v", seen, want)
		}
		if name := firstNameOf(t, api.URL); name != "Browser" {
			t.Errorf("firstName %q, want it unchanged (Browser)", name)
		}
	})
}

// firstNameOf reads user 1 from the mock as a non-browser client would.
func firstNameOf(t *testing.T, base string) string {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/v1/users/1", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "api-key "+keyA)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/users/1: status %d", res.StatusCode)
	}
	var u struct {
		FirstName string `json:"firstName"`
	}
	if err := json.NewDecoder(res.Body).Decode(&u); err != nil {
		t.Fatalf("GET /v1/users/1: %v", err)
	}
	return u.FirstName
}
