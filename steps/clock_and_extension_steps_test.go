package steps

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/match"
)

// sessionServer answers every login with a session dated by created.
func sessionServer(t *testing.T, created func() string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1,"created":"` + created() + `","creatorUserId":1,"userId":1,"clientId":1,"token":"tok-1"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestLogInAfterTheClockMovesOn: the login that follows the step is dated in
// a later second than one made before it, without waiting much longer than
// that second; a server whose sessions are dated by the day, or whose
// session's date does not move, is not waited for long and not failed.
func TestLogInAfterTheClockMovesOn(t *testing.T) {
	f := newFakeAPI()
	s := NewSuite(testProfile(f.start(t)), Options{})
	st := stateHoldingA(s)
	ctx := stateToContext(context.Background(), st)
	before := st.postSession(ctx, "qa@example.com", "qa-password", pendingRequest{})
	r0, err := match.ParseISORange(gjson.GetBytes(before.respBody, "created").Str)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := (authSteps{}).iLogInAsAccountAfterASecond(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	r1, err := match.ParseISORange(gjson.GetBytes(st.last.respBody, "created").Str)
	if err != nil || !r1.After(r0) {
		t.Errorf("the last login is dated %v, not in a later second than %v (%v)", r1.Lo, r0.Lo, err)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("waited %v for the next second", waited)
	}
	if st.tokens["A"] == "" {
		t.Error("the login's token was not kept for the scenario")
	}

	for name, created := range map[string]string{"a date": "2026-01-02", "a date that does not move": "2026-01-02T15:04:05Z"} {
		s := NewSuite(testProfile(sessionServer(t, func() string { return created })), Options{})
		s.clockWait = 300 * time.Millisecond
		ctx := stateToContext(context.Background(), stateHoldingA(s))
		start := time.Now()
		if err := (authSteps{}).iLogInAsAccountAfterASecond(ctx, "A"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if waited := time.Since(start); waited > 1500*time.Millisecond {
			t.Errorf("%s: waited %v", name, waited)
		}
	}
}

// TestReadExtensionStep: the rest of a scenario is skipped where the target
// has no such read endpoint or refuses the caller, and goes on where it
// answers.
func TestReadExtensionStep(t *testing.T) {
	f := newFakeAPI()
	s := NewSuite(testProfile(f.start(t)), Options{})
	ctx := stateToContext(context.Background(), stateHoldingA(s))
	if err := (authSteps{}).iAmAccountUsing(ctx, "A", "api-key header"); err != nil {
		t.Fatal(err)
	}
	r := requestSteps{}
	if err := r.iSendGETIfTheTargetHasThatReadExtension(ctx, "/users/1"); err != nil {
		t.Errorf("an extension the target has: %v", err)
	}
	for _, path := range []string{"/users/1/clients", "/users/2"} {
		err := r.iSendGETIfTheTargetHasThatReadExtension(ctx, path)
		if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), "GET "+path) {
			t.Errorf("GET %s: %v, want a skip that names it", path, err)
		}
	}
	// Other answers are the response, for the steps after it to judge.
	if err := r.iSendGETIfTheTargetHasThatReadExtension(ctx, "/reply?status=500"); err != nil {
		t.Errorf("a 500: %v, want no skip", err)
	}
}

// A login sends what the Given steps set beside its credentials (another
// account's credential, a body in chunks), and refuses a body of its own.
func TestLogInCarriesWhatTheGivenStepsSet(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1,"created":"2026-01-02T15:04:05Z","creatorUserId":1,"userId":1,"clientId":1,"token":"tok-1"}`))
	}))
	t.Cleanup(srv.Close)
	s := NewSuite(testProfile(srv.URL+"/v1"), Options{})
	st := stateHoldingA(s)
	ctx := stateToContext(context.Background(), st)
	var r requestSteps
	if err := r.theRequestHeaderIs(ctx, "Authorization", "api-key other-key"); err != nil {
		t.Fatal(err)
	}
	if err := r.theRequestQueryParameterIs(ctx, "sessionToken", "other-token"); err != nil {
		t.Fatal(err)
	}
	if err := r.theRequestBodyIsSentInChunks(ctx); err != nil {
		t.Fatal(err)
	}
	if err := (authSteps{}).iLogInWithEmailAndPassword(ctx, "qa@example.com", "qa-password"); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Header.Get("Authorization") != "api-key other-key" || got.URL.Query().Get("sessionToken") != "other-token" ||
		len(got.TransferEncoding) == 0 || got.TransferEncoding[0] != "chunked" {
		t.Fatalf("the login went without what the Given steps set: %+v", got)
	}
	got = nil
	if err := (authSteps{}).iLogInWithEmailAndPassword(ctx, "qa@example.com", "qa-password"); err != nil || got.Header.Get("Authorization") != "" {
		t.Fatalf("the next login carried the last one's header (%v)", err)
	}
	if err := r.theRequestBodyIs(ctx, &godog.DocString{Content: `{"email":"x"}`}); err != nil {
		t.Fatal(err)
	}
	if err := (authSteps{}).iLogInWithEmailAndPassword(ctx, "qa@example.com", "qa-password"); err == nil {
		t.Fatal("a login with a body of the scenario's went")
	}
}
