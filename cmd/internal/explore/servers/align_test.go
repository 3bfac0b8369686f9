package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
)

// A target the explorer cannot read back (no GET /users/:userId), whose
// account B has a phone extension the profile does not give: the explorer
// writes the accounts as its model holds them before the first sequence,
// so that the first PUT leaving the extension out does not find the
// target's own value. Before, the first sequences of B diverged, and the
// reproducers, run after a restore, did not repeat it (make
// explore-lineages, events, seed 5).
func TestNoReadTargetAlignedBeforeTheFirstSequence(t *testing.T) {
	var events Server
	for _, s := range Legal(Lineages()) {
		if s.Name == "events" {
			events = s
		}
	}
	if events.Start == nil {
		t.Fatal("no lineage named events")
	}
	tg, err := events.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	p := tg.Profile
	put := func(body map[string]any) gjson.Result {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"email": p.OtherEmail, "password": p.OtherPassword})
		res, err := http.Post(p.BaseURL+"/sessions", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var login struct{ UserID json.Number }
		_ = json.NewDecoder(res.Body).Decode(&login)
		res.Body.Close()
		b, _ = json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPut, p.BaseURL+"/users/"+login.UserID.String(), bytes.NewReader(b))
		req.Header.Set("Authorization", "api-key "+p.OtherAPIKey)
		req.Header.Set("Content-Type", "application/json")
		res, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out bytes.Buffer
		_, _ = out.ReadFrom(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("PUT /users of B: %d %s", res.StatusCode, out.String())
		}
		return gjson.ParseBytes(out.Bytes())
	}
	body := map[string]any{"email": p.OtherEmail, "firstName": "Kwabena", "lastName": "Asante", "timezone": "Europe/Stockholm",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false, "password": nil}
	// The target's own value, to start with: the test means nothing
	// if B has no extension.
	if ext := put(body).Get("phoneExtension"); ext.Type != gjson.String {
		t.Fatalf("B's phone extension is %s; the test needs one the profile does not give", ext.Raw)
	}
	// No sequence runs in a budget this short: what the target holds
	// after it is what the explorer wrote before the first.
	if _, err := explore.Run(context.Background(), p, explore.Config{Budget: time.Nanosecond, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if ext := put(body).Get("phoneExtension"); ext.Type != gjson.Null {
		t.Errorf("after the explorer started, a PUT leaving the extension out finds %s, not the null its model holds", ext.Raw)
	}
}
