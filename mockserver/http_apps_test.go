package mockserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// POST /apps: with a hash the marketplace app's name and platform win; without
// one, name and platform.id make the app and marketapp.hash is null (README).
func TestPostApp(t *testing.T) {
	t.Parallel()
	name255 := strings.Repeat("n", 255)
	cases := []struct {
		name     string
		body     map[string]any
		appName  string
		platform string
		hash     string // raw JSON
		plan     int
	}{
		{"Android marketplace app on pro", appBody(), "Word Garden", `{"id":1,"name":"Android"}`, `"` + hashWordAndroid + `"`, 2},
		{"iOS marketplace app on dynamic", with(with(appBody(), "marketapp.hash", hashCoinIOS), "nextplan.id", 3),
			"Coin Rush", `{"id":2,"name":"iOS"}`, `"` + hashCoinIOS + `"`, 3},
		{"lite plan by id", with(with(appBody(), "marketapp.hash", hashPuzzleIOS), "nextplan.id", 1),
			"Puzzle Quest", `{"id":2,"name":"iOS"}`, `"` + hashPuzzleIOS + `"`, 1},
		{"nextplan omitted gives lite", with(appBody(), "nextplan", absent), "Word Garden", `{"id":1,"name":"Android"}`, `"` + hashWordAndroid + `"`, 1},
		{"the marketplace app wins over name and platform", with(with(appBody(), "name", "Ignored"), "platform.id", 2),
			"Word Garden", `{"id":1,"name":"Android"}`, `"` + hashWordAndroid + `"`, 2},
		{"name and platform without marketapp", map[string]any{"name": "In House", "platform": map[string]any{"id": 2}, "nextplan": map[string]any{"id": 2}},
			"In House", `{"id":2,"name":"iOS"}`, "null", 2},
		{"name and platform with a null hash", map[string]any{"marketapp": map[string]any{"hash": nil}, "name": "In House", "platform": map[string]any{"id": 1}},
			"In House", `{"id":1,"name":"Android"}`, "null", 1},
		{"name of 255 characters", map[string]any{"name": name255, "platform": map[string]any{"id": 1}},
			name255, `{"id":1,"name":"Android"}`, "null", 1},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			a := created(t, srv, "apps", "app", tc.body)
			checkApp(t, a)
			wantEq(t, "name", a.Get("name").String(), tc.appName)
			wantEq(t, "platform", a.Get("platform").Raw, tc.platform)
			wantEq(t, "marketapp.hash", a.Get("marketapp.hash").Raw, tc.hash)
			wantPlan(t, a, tc.plan)

			id := a.Get("id").String()
			_, got := do(t, srv, "GET", "/v1/apps/"+id, asA, nil)
			wantEq(t, "GET the new app", got.Raw, a.Raw)
			// It joins the caller's primary client, client 1.
			_, list := do(t, srv, "GET", "/v1/clients/1/apps", asA, nil)
			wantEq(t, "app ids of client 1", list.Get("apps.#.id").Raw, "[1,"+id+"]")
			wantError(t, send(t, srv, "GET", "/v1/apps/"+id, asB, nil), http.StatusForbidden, "Forbidden")
		})
	}
}

// README 4.2: an app goes to the caller's primary client even when the caller
// is a member of a newer one.
func TestPostAppAttachesToPrimaryClient(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	r := send(t, srv, "POST", "/v1/clients", asA, clientBody())
	mustStatus(t, r, http.StatusOK, "POST /clients")
	newClient := r.json.Get("id").String()

	r = send(t, srv, "POST", "/v1/apps", sessionQuery(login(t, srv, emailA, passA)), appBody())
	mustStatus(t, r, http.StatusOK, "POST /apps")
	_, apps1 := do(t, srv, "GET", "/v1/clients/1/apps", asA, nil)
	wantEq(t, "app ids of client 1", apps1.Get("apps.#.id").Raw, "[1,"+r.json.Get("id").Raw+"]")
	_, appsNew := do(t, srv, "GET", "/v1/clients/"+newClient+"/apps", asA, nil)
	wantEq(t, "apps of the newer client", appsNew.Raw, `{"apps":[]}`)
}

func TestPostAppValidation(t *testing.T) {
	t.Parallel()
	noHash := map[string]any{"name": "In House", "platform": map[string]any{"id": 1}}
	cases := []struct {
		name string
		body map[string]any
		want []fe
	}{
		{"neither hash nor name", map[string]any{"platform": map[string]any{"id": 1}}, []fe{{"name", "InvalidName"}}},
		{"null hash and null name", map[string]any{"marketapp": map[string]any{"hash": nil}, "name": nil, "platform": map[string]any{"id": 1}},
			[]fe{{"name", "InvalidName"}}},
		{"empty name without hash", with(noHash, "name", ""), []fe{{"name", "InvalidName"}}},
		{"name a number", with(noHash, "name", 5), []fe{{"name", "InvalidName"}}},
		{"name of 256 characters", with(noHash, "name", strings.Repeat("n", 256)), []fe{{"name", "InvalidName"}}},
		{"platform missing without hash", with(noHash, "platform", absent), []fe{{"platform.id", "InvalidPlatformId"}}},
		{"platform id null without hash", with(noHash, "platform.id", nil), []fe{{"platform.id", "InvalidPlatformId"}}},
		{"platform id unknown", with(noHash, "platform.id", 3), []fe{{"platform.id", "InvalidPlatformId"}}},
		{"platform id a string", with(noHash, "platform.id", "1"), []fe{{"platform.id", "InvalidPlatformId"}}},
		{"hash of 39 characters", with(appBody(), "marketapp.hash", hashWordAndroid[:39]), []fe{{"marketapp.hash", "InvalidMarketappHash"}}},
		{"hash of 41 characters", with(appBody(), "marketapp.hash", hashWordAndroid+"0"), []fe{{"marketapp.hash", "InvalidMarketappHash"}}},
		{"hash not hex", with(appBody(), "marketapp.hash", strings.Repeat("g", 40)), []fe{{"marketapp.hash", "InvalidMarketappHash"}}},
		{"hash a number", with(appBody(), "marketapp.hash", 12345), []fe{{"marketapp.hash", "InvalidMarketappHash"}}},
		{"hash of no marketplace app", with(appBody(), "marketapp.hash", strings.Repeat("0", 40)), []fe{{"marketapp.hash", "InvalidMarketappHash"}}},
		{"plan unknown", with(appBody(), "nextplan.id", 99), []fe{{"nextplan.id", "InvalidPlanId"}}},
		{"plan id a string", with(appBody(), "nextplan.id", "2"), []fe{{"nextplan.id", "InvalidPlanId"}}},
		{"plan id 0", with(appBody(), "nextplan.id", 0), []fe{{"nextplan.id", "InvalidPlanId"}}},
		{"hash and plan both wrong", with(with(appBody(), "marketapp.hash", "x"), "nextplan.id", 4),
			[]fe{{"marketapp.hash", "InvalidMarketappHash"}, {"nextplan.id", "InvalidPlanId"}}},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			wantRefused(t, srv, "POST", "/v1/apps", asA, tc.body, tc.want...)
		})
	}
}

// Concurrent creates get distinct ids and write keys (run with -race).
func TestPostAppConcurrent(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	buf, err := json.Marshal(appBody())
	if err != nil {
		t.Fatal(err)
	}
	const n = 32
	bodies := make([][]byte, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req := httptest.NewRequest("POST", "/v1/apps", strings.NewReader(string(buf)))
			req.Header.Set("Authorization", "api-key "+keyA)
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			statuses[i], bodies[i] = rec.Code, rec.Body.Bytes()
		})
	}
	wg.Wait()
	seenID := map[int64]bool{}
	seenKey := map[string]bool{}
	for i := range n {
		if statuses[i] != http.StatusOK {
			t.Fatalf("request %d: status %d; body %s", i, statuses[i], bodies[i])
		}
		a := gjson.ParseBytes(bodies[i])
		id, key := a.Get("id").Int(), a.Get("writeKey").String()
		if seenID[id] || seenKey[key] {
			t.Errorf("request %d repeats id %d or write key %s", i, id, key)
		}
		seenID[id], seenKey[key] = true, true
	}
	_, list := do(t, srv, "GET", "/v1/clients/1/apps", asA, nil)
	wantEq(t, "apps of client 1", len(list.Get("apps").Array()), n+1)
}
