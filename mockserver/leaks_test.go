package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// Finding "small leaks": an app's writeKey, a secret of the app, was kept
// in clear in the journal and the export, and so were headers whose names
// say key, token, secret, auth or password beyond the ones listed.
func TestJournalAndExportKeepNoWriteKey(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	created := send(t, srv, "POST", "/v1/apps", all(asA, header("X-Client-Key", "hdr-secret-1"), header("X-Auth-Thing", "hdr-secret-2"),
		header("Upstream-Password", "hdr-secret-3")), appBody())
	mustStatus(t, created, http.StatusOK, "POST /v1/apps")
	writeKey := created.json.Get("writeKey").String()
	if len(writeKey) != 32 {
		t.Fatalf("no write key in %s", created)
	}
	journal := send(t, srv, "GET", "/__admin/requests", noAuth, nil)
	mustStatus(t, journal, http.StatusOK, "GET /__admin/requests")
	for _, secret := range []string{writeKey, "hdr-secret-1", "hdr-secret-2", "hdr-secret-3"} {
		if strings.Contains(string(journal.body), secret) {
			t.Errorf("the journal holds %q in clear", secret)
		}
	}
	export := send(t, srv, "GET", "/__admin/state", noAuth, nil)
	mustStatus(t, export, http.StatusOK, "GET /__admin/state")
	if strings.Contains(string(export.body), writeKey) || strings.Contains(string(export.body), `"writeKey"`) {
		t.Errorf("an export without the admin token holds the write keys")
	}
	// That export imports, and its apps get new keys.
	back := send(t, srv, "PUT", "/__admin/state", noAuth, raw(string(export.body)))
	mustStatus(t, back, http.StatusOK, "PUT /__admin/state of an export without write keys")
	app := send(t, srv, "GET", "/v1/apps/"+created.json.Get("id").String(), asA, nil)
	if k := app.json.Get("writeKey").String(); len(k) != 32 || k == writeKey {
		t.Errorf("after the import the app's write key is %q, want a new one", k)
	}

	// Under the admin token the export carries them, for a backup.
	tokened, err := mockserver.New(mockserver.Options{AdminToken: "t0ken-for-export"})
	if err != nil {
		t.Fatal(err)
	}
	defer tokened.Close()
	withKeys := send(t, tokened, "GET", "/__admin/state", header("Authorization", "Bearer t0ken-for-export"), nil)
	mustStatus(t, withKeys, http.StatusOK, "GET /__admin/state with the token")
	if !strings.Contains(string(string(withKeys.body)), `"writeKey"`) {
		t.Errorf("an export under the admin token has no write keys: %.300s", string(withKeys.body))
	}
}

// Finding "small leaks": a page of any origin could send X-Mock-Namespace
// and make namespaces until the 1000 were used. Only the origins
// --cors-origins names may.
func TestNamespaceFromAnotherOrigin(t *testing.T) {
	t.Parallel()
	named, err := mockserver.New(mockserver.Options{CORSOrigins: []string{"http://localhost:5173"}})
	if err != nil {
		t.Fatal(err)
	}
	defer named.Close()
	for _, tc := range []struct {
		name   string
		srv    http.Handler
		origin string
		want   int
	}{
		{"no origin (curl, a test)", newServer(t), "", http.StatusOK},
		{"a page of the mock itself", newServer(t), "http://" + localHost, http.StatusOK},
		{"a page of any site, default CORS", newServer(t), "http://evil.example", http.StatusForbidden},
		{"a page of an origin --cors-origins names", named, "http://localhost:5173", http.StatusOK},
		{"a page of another origin", named, "http://localhost:3000", http.StatusForbidden},
	} {
		a := header(mockserver.NamespaceHeader, "ns-from-page")
		if tc.origin != "" {
			a = all(a, header("Origin", tc.origin))
		}
		r := send(t, tc.srv, "GET", "/v1/platforms", a, nil)
		if r.status != tc.want {
			t.Errorf("%s: %s, want %d", tc.name, r, tc.want)
		}
	}
}
