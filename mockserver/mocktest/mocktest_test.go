package mocktest

import (
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

func TestStartPrintsTheMocksEnvironment(t *testing.T) {
	m := MustStart(t, Options{})
	seed := m.Server.Profile()
	for k, want := range map[string]string{
		"PRICING_BASE_URL": m.URL, "PRICING_API_KEY": seed.APIKey, "PRICING_OTHER_EMAIL": seed.OtherEmail,
		"PRICING_MARKETAPP_HASH": seed.MarketappHash,
	} {
		if got := m.Getenv(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	res, err := http.Get(m.URL + "/platforms")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET %s/platforms: %d", m.URL, res.StatusCode)
	}
}

func TestStartServesServersBehindTheWrap(t *testing.T) {
	servers, err := catalogue.Find([]string{"v1.0-not-served"})
	if err != nil {
		t.Fatal(err)
	}
	wrapped := false
	m := MustStart(t, Options{Servers: servers, Wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			wrapped = true
			h.ServeHTTP(w, r)
		})
	}})
	res, err := http.Get(m.URL + ".0/platforms")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound || !wrapped {
		t.Errorf("GET /v1.0/platforms with v1.0-not-served: %d, through the wrap %v; want 404 through it", res.StatusCode, wrapped)
	}
}

func TestStartWithPairs(t *testing.T) {
	m := MustStart(t, Options{Pairs: 3})
	keys := []string{m.Getenv("PRICING_API_KEY"), m.Getenv("PRICING_OTHER_API_KEY")}
	for _, n := range []string{"2", "3"} {
		keys = append(keys, m.Getenv("PRICING_API_KEY_"+n), m.Getenv("PRICING_OTHER_API_KEY_"+n))
	}
	if m.Getenv("PRICING_API_KEY_4") != "" {
		t.Errorf("a fourth pair in the environment of three")
	}
	users := map[int64]bool{}
	for _, key := range keys {
		id, ok := m.Server.Store().UserIDForAPIKey(key)
		if !ok || users[id] {
			t.Errorf("api key %q: user %d (%v), want a user of its own", key, id, ok)
		}
		users[id] = true
	}
}

// TestTheMockKnowsNotTheSuite: nothing under mockserver/ depends on the
// contract suite (steps, features) or on what runs it (cmd, the helper
// above both): the mock serves any client, the suite tests any server.
func TestTheMockKnowsNotTheSuite(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the dependencies: %v", err)
	}
	const module = "github.com/pricing-contract/pricing-contract"
	out, err := exec.Command(goTool, "list", "-deps", module+"/mockserver/...").Output()
	if err != nil {
		t.Fatalf("go list -deps %s/mockserver/...: %v", module, err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/mockserver/mocktest") {
		t.Fatalf("go list -deps answered %d packages without this one", len(deps))
	}
	for _, d := range deps {
		for _, above := range []string{"/steps", "/features", "/cmd"} {
			if d == module+above || strings.HasPrefix(d, module+above+"/") {
				t.Errorf("mockserver/... depends on %s", d)
			}
		}
	}
}
