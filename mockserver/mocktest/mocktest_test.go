package mocktest

import (
	"net/http"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/defects"
)

func TestStartPointsTheSuiteAtTheMock(t *testing.T) {
	m := MustStart(t, Options{})
	seed := m.Server.Profile()
	if m.Profile.BaseURL != m.URL || m.Profile.APIKey != seed.APIKey || m.Profile.OtherEmail != seed.OtherEmail ||
		m.Profile.MarketappHash != seed.MarketappHash {
		t.Errorf("profile %+v does not describe the mock at %s with the seed %+v", m.Profile, m.URL, seed)
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

func TestStartServesDefectsBehindTheWrap(t *testing.T) {
	ds, err := defects.Find([]string{"v1.0-not-served"})
	if err != nil {
		t.Fatal(err)
	}
	wrapped := false
	m := MustStart(t, Options{Defects: ds, Wrap: func(h http.Handler) http.Handler {
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
	if _, err := Start(Options{Defects: []defects.Defect{{Name: "no-such-fault"}}}); err == nil {
		t.Error("Start served an unknown defect")
	}
}

func TestStartWithPairs(t *testing.T) {
	m := MustStart(t, Options{Pairs: 3})
	if n := len(m.Profile.Pairs); n != 2 {
		t.Fatalf("%d pairs after the first in the profile, want 2: %+v", n, m.Profile.Pairs)
	}
	users := map[int64]bool{}
	keys := []string{m.Profile.APIKey, m.Profile.OtherAPIKey}
	for _, pr := range m.Profile.Pairs {
		keys = append(keys, pr.APIKey, pr.OtherAPIKey)
	}
	for _, key := range keys {
		id, ok := m.Server.Store().UserIDForAPIKey(key)
		if !ok || users[id] {
			t.Errorf("api key %s: user %d (%v), want a user of its own", key, id, ok)
		}
		users[id] = true
	}
}
