package mockserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// Finding "small leaks": an app's writeKey, a secret of the app, and
// headers whose names say key, token, secret, auth or password beyond the
// ones listed were kept in clear in the journal.
func TestJournalMasksWriteKeysAndSecretHeaders(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	secretHeaders := map[string]string{
		"X-Client-Key":       "hdr-secret-1",
		"X-Auth-User":        "hdr-secret-2",
		"Upstream-Password":  "hdr-secret-3",
		"X-Shared-Secret":    "hdr-secret-4",
		"X-Refresh-Token":    "hdr-secret-5",
		"x-signing-KEY-id":   "hdr-secret-6",
		"Proxy-Authenticate": "hdr-secret-7",
	}
	hdrs := []auth{asA, header("X-Request-Id", "req-visible")}
	for k, v := range secretHeaders {
		hdrs = append(hdrs, header(k, v))
	}
	created := send(t, srv, "POST", "/v1/apps", all(hdrs...), appBody())
	mustStatus(t, created, http.StatusOK, "POST /v1/apps")
	writeKey := created.json.Get("writeKey").String()
	if !reWriteKey.MatchString(writeKey) {
		t.Fatalf("no write key in %s", created)
	}
	read := send(t, srv, "GET", "/v1/apps/"+created.json.Get("id").String(), asA, nil)
	mustStatus(t, read, http.StatusOK, "GET /v1/apps/ID")

	journal := send(t, srv, "GET", "/__admin/requests", noAuth, nil)
	mustStatus(t, journal, http.StatusOK, "GET /__admin/requests")
	body := string(journal.body)
	if strings.Contains(body, writeKey) {
		t.Errorf("the journal holds the app's writeKey %s in clear", writeKey)
	}
	for name, secret := range secretHeaders {
		if strings.Contains(body, secret) {
			t.Errorf("the journal holds header %s in clear (%q)", name, secret)
		}
	}
	// The test proves something only if the journal shows the requests,
	// and what is no secret stays readable.
	if !strings.Contains(body, "req-visible") || !strings.Contains(body, `"writeKey":"***"`) {
		t.Errorf("the journal does not show the requests with their secrets masked: %.600s", body)
	}
}

// Finding "small leaks": the export carried every app's writeKey to any
// program that may call the admin API without a token. Now it carries them
// only under the admin token; an export without them imports back, each
// app getting a new key.
func TestExportCarriesWriteKeysOnlyUnderTheAdminToken(t *testing.T) {
	t.Parallel()
	const token = "export-admin-token"
	tokened, err := mockserver.New(mockserver.Options{AdminToken: token})
	if err != nil {
		t.Fatal(err)
	}
	defer tokened.Close()
	asAdmin := header("Authorization", "Bearer "+token)
	cases := []struct {
		name     string
		srv      http.Handler
		admin    auth
		wantKeys bool
	}{
		{"no admin token: its own host may export", newServer(t), noAuth, false},
		{"under the admin token", tokened, asAdmin, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			created := send(t, tc.srv, "POST", "/v1/apps", asA, appBody())
			mustStatus(t, created, http.StatusOK, "POST /v1/apps")
			appPath := "/v1/apps/" + created.json.Get("id").String()
			key := created.json.Get("writeKey").String()

			export := send(t, tc.srv, "GET", "/__admin/state", tc.admin, nil)
			mustStatus(t, export, http.StatusOK, "GET /__admin/state")
			apps := export.json.Get("apps").Array()
			if len(apps) == 0 {
				t.Fatalf("the export holds no app: %.300s", export.body)
			}
			if got := strings.Contains(string(export.body), key); got != tc.wantKeys {
				t.Errorf("the export holds the new app's writeKey: %v, want %v", got, tc.wantKeys)
			}
			for _, a := range apps {
				if k := a.Get("writeKey").String(); (k != "") != tc.wantKeys {
					t.Errorf("app %d exported with writeKey %q", a.Get("id").Int(), k)
				}
			}

			back := send(t, tc.srv, "PUT", "/__admin/state", tc.admin, raw(export.body))
			mustStatus(t, back, http.StatusOK, "PUT /__admin/state of the export")
			if got := strings.Contains(string(back.body), key); got != tc.wantKeys {
				t.Errorf("the import's answer holds the writeKey: %v, want %v", got, tc.wantKeys)
			}
			after := send(t, tc.srv, "GET", appPath, asA, nil)
			mustStatus(t, after, http.StatusOK, "GET "+appPath+" after the import")
			k := after.json.Get("writeKey").String()
			switch {
			case !reWriteKey.MatchString(k):
				t.Errorf("after the import the app's writeKey is %q", k)
			case tc.wantKeys && k != key:
				t.Errorf("a full backup imported back changed the writeKey %s to %s", key, k)
			case !tc.wantKeys && k == key:
				t.Errorf("an import without keys kept the old writeKey: whoever may import could read it")
			}
		})
	}
}

// Finding "small leaks": a page of any origin could send X-Mock-Namespace
// and make namespaces until the 1000 were used. Only pages of the origins
// --cors-origins names (and the mock's own) may now.
func TestNamespaceHeaderFromAnotherOrigin(t *testing.T) {
	t.Parallel()
	named, err := mockserver.New(mockserver.Options{CORSOrigins: []string{"http://localhost:5173"}})
	if err != nil {
		t.Fatal(err)
	}
	defer named.Close()
	star, err := mockserver.New(mockserver.Options{CORSOrigins: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	defer star.Close()
	open := newServer(t)
	cases := []struct {
		name   string
		srv    http.Handler
		origin string
		want   int
	}{
		{"no page (curl, a test)", open, "", http.StatusOK},
		{"a page of the mock itself", open, "http://" + localHost, http.StatusOK},
		{"a page of any site, CORS by default", open, "http://evil.example", http.StatusForbidden},
		{"a page of any site, --cors-origins '*'", star, "http://evil.example", http.StatusForbidden},
		{"a page of an origin --cors-origins names", named, "http://localhost:5173", http.StatusOK},
		{"the same origin, written otherwise", named, "HTTP://LOCALHOST:5173/", http.StatusOK},
		{"a page of another origin", named, "http://localhost:3000", http.StatusForbidden},
	}
	for _, tc := range cases {
		a := header(mockserver.NamespaceHeader, "ns-from-a-page")
		if tc.origin != "" {
			a = all(a, header("Origin", tc.origin))
		}
		r := send(t, tc.srv, "GET", "/v1/platforms", a, nil)
		if r.status != tc.want {
			t.Errorf("%s: %s, want %d", tc.name, r, tc.want)
		}
		if r.status == http.StatusForbidden && !strings.Contains(string(r.body), "--cors-origins") {
			t.Errorf("%s: the refusal does not say how to allow the origin: %s", tc.name, r)
		}
	}
	// A refused page made no namespace.
	fresh := newServer(t)
	for range 3 {
		send(t, fresh, "GET", "/v1/platforms", all(header(mockserver.NamespaceHeader, "made-by-evil"), header("Origin", "http://evil.example")), nil)
	}
	if l := send(t, fresh, "GET", "/__admin/namespaces", noAuth, nil); strings.Contains(string(l.body), "made-by-evil") {
		t.Errorf("a refused page made a namespace: %s", l)
	}
}

// hostIs sends a request under another Host, as a page whose DNS name
// leads to the mock does.
func hostIs(host string) auth { return func(r *http.Request) { r.Host = host } }

// Finding "a DNS-rebinding page can use up all 1000 namespaces": a page of
// evil.example, whose name is made to point at 127.0.0.1, is of the same
// origin as the mock under that name (its Origin equals the Host), and
// its same-origin GETs carry no Origin at all; then a CI job's new
// namespace got 409. A page now needs a positive proof: an origin
// --cors-origins names, or the mock's own page under one of its own host
// names.
func TestNamespaceFromARebindingPage(t *testing.T) {
	t.Parallel()
	srv := newLimited(t, mockserver.Limits{Namespaces: 5})
	const evil = "evil.example:8080"
	rebinding := []struct {
		name string
		page auth
	}{
		{"a request with the page's Origin", all(hostIs(evil), header("Origin", "http://"+evil))},
		{"a same-origin GET, no Origin", all(hostIs(evil), header("Sec-Fetch-Site", "same-origin"))},
		{"a same-origin GET through a name --admin-hosts does not list", all(hostIs("mock.example:8080"), header("Sec-Fetch-Site", "same-origin"))},
	}
	for _, tc := range rebinding {
		for i := range 10 {
			r := send(t, srv, "GET", "/v1/platforms", all(tc.page, inNamespace(fmt.Sprintf("rebound-%d", i))), nil)
			if r.status != http.StatusForbidden {
				t.Fatalf("%s, namespace %d: %s, want 403", tc.name, i, r)
			}
		}
	}
	if l := send(t, srv, "GET", "/__admin/namespaces", nil, nil); strings.Contains(string(l.body), "rebound-") {
		t.Errorf("a rebinding page made namespaces: %s", l.json.Get("namespaces.#.name"))
	}
	// The CI job's new namespace, and the mock's own pages.
	for i, tc := range []struct {
		name string
		page auth
	}{
		{"a CI job", noAuth},
		{"the mock's page, with its Origin", header("Origin", "http://"+localHost)},
		{"the mock's page, a same-origin GET", header("Sec-Fetch-Site", "same-origin")},
		{"the mock's page under localhost", all(hostIs("localhost:8080"), header("Origin", "http://localhost:8080"))},
	} {
		if r := send(t, srv, "GET", "/v1/platforms", all(tc.page, inNamespace(fmt.Sprintf("own-%d", i))), nil); r.status != http.StatusOK {
			t.Errorf("%s: %s, want 200", tc.name, r)
		}
	}
	// A name --admin-hosts lists is the mock's own.
	lan, err := mockserver.New(mockserver.Options{AdminHosts: []string{"mock.example"}})
	if err != nil {
		t.Fatal(err)
	}
	defer lan.Close()
	if r := send(t, lan, "GET", "/v1/platforms", all(hostIs("mock.example:8080"), header("Sec-Fetch-Site", "same-origin"), inNamespace("lan")), nil); r.status != http.StatusOK {
		t.Errorf("the mock's page under a name --admin-hosts lists: %s, want 200", r)
	}
}
