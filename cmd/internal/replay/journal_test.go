package replay

import (
	"context"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// recordJournal drives a frontend's session against a fresh mock (in a
// namespace of its own, as a developer sharing a mock would) and returns
// the mock's journal of it: a login, a profile saved, a client made and
// renamed, an app, the platforms, a read extension, a wrong password, a
// password changed and used, another's user refused.
func recordJournal(t *testing.T) []byte {
	t.Helper()
	m := mocktest.MustStart(t, mocktest.Options{})
	s := &session{t: t, base: m.URL, ns: "frontend"}
	if s.login("qa@example.com", "qa-password") != 200 {
		t.Fatal("the demo account A does not log in")
	}
	_, me := s.call("GET", "/users/1", s.withToken(), nil)
	s.call("PUT", "/users/1", s.withToken(), userBody(me, map[string]any{"firstName": "Recorded", "subscribeBlog": true}))
	status, client := s.call("POST", "/clients", s.withToken(), map[string]any{
		"name": "Frontend Ltd", "addressLine1": "1 Main Street", "addressCity": "London", "addressPostcode": "SW1A 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree"})
	if status != 200 {
		t.Fatalf("POST /clients: %d %s", status, client.Raw)
	}
	s.call("PUT", "/clients/"+client.Get("id").Raw, s.withToken(), map[string]any{
		"name": "Frontend Limited", "addressLine1": "1 Main Street", "addressCity": "London", "addressPostcode": "SW1A 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree"})
	s.call("POST", "/apps", map[string]string{"Authorization": "api-key qa-api-key"}, map[string]any{
		"name": "My Game", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}})
	s.call("GET", "/platforms", nil, nil)
	if s.login("qa@example.com", "not-the-password") != 401 {
		t.Fatal("a wrong password logs in")
	}
	s.login("qa@example.com", "qa-password")
	s.call("PUT", "/users/1", s.withToken(), userBody(me, map[string]any{"firstName": "Recorded", "subscribeBlog": true, "password": "a-new-password"}))
	if s.login("qa@example.com", "a-new-password") != 200 {
		t.Fatal("the new password does not log in")
	}
	s.call("PUT", "/users/2", s.withToken(), userBody(me, nil))
	return s.journal(m.Origin())
}

func TestReplayJournalAgainstTheMock(t *testing.T) {
	rec, err := Parse(recordJournal(t))
	if err != nil {
		t.Fatal(err)
	}
	target := mocktarget.MustStart(t, mocktest.Options{})
	var progress strings.Builder
	res, err := Run(context.Background(), rec, target.Profile, Config{Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", progress.String())
	t.Logf("accounts: %v", res.Accounts)
	for _, o := range res.Outcomes {
		if o.State == Diverged || o.State == Unconfirmed {
			t.Errorf("%s: %s\n%s", o.Label, o.Why, o.Divergence.Feature)
		}
	}
}

func TestReplayJournalAgainstADefect(t *testing.T) {
	rec, err := Parse(recordJournal(t))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := catalogue.Find([]string{"user-profile-not-stored"})
	if err != nil {
		t.Fatal(err)
	}
	target := mocktarget.MustStart(t, mocktest.Options{Servers: ds})
	var progress strings.Builder
	res, err := Run(context.Background(), rec, target.Profile, Config{Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", progress.String())
	for _, o := range res.Outcomes {
		if o.Divergence != nil {
			t.Logf("%s\n%s\n%s", o.Label, o.Divergence.Feature, o.Divergence.Proof)
		}
	}
}
