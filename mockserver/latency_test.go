package mockserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// delays records the delays a server asks for instead of waiting them out.
type delays struct {
	mu  sync.Mutex
	got []time.Duration
}

func (d *delays) sleep(ctx context.Context, dur time.Duration) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, dur)
	return nil
}

func (d *delays) last(t *testing.T) time.Duration {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.got) == 0 {
		t.Fatal("no delay was asked for")
	}
	return d.got[len(d.got)-1]
}

func recordingServer(t *testing.T, opts Options) (*Server, *delays) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	d := &delays{}
	s.sleep = d.sleep
	return s, d
}

// asA are the headers of a request by the seed's account A.
func asA(s *Server) []string {
	return []string{"Authorization", "api-key " + s.Profile().APIKey}
}

// putA is a PUT /users body for the seed's account A with another first name.
func putA(s *Server, firstName string) string {
	return `{"email":` + strconv.Quote(s.Profile().Email) + `,"firstName":` + strconv.Quote(firstName) + `,"lastName":"Assurance",` +
		`"timezone":"Europe/London","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null}`
}

// rename changes account A's first name in a namespace ("" for the
// default one) through the API.
func rename(t *testing.T, s *Server, ns, firstName string) {
	t.Helper()
	if rec := serve(s, "PUT", "/v1/users/1", putA(s, firstName), append(asA(s), NamespaceHeader, ns)...); rec.Code != 200 {
		t.Fatalf("PUT /v1/users/1 in %q: %d %s", ns, rec.Code, rec.Body)
	}
}

func serve(s *Server, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "127.0.0.1:8080" // the admin API answers only its own host names
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func TestDelays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		opts     Options
		rule     string // a fault rule to add first, "" for none
		headers  []string
		min, max time.Duration
	}{
		{"none", Options{}, "", nil, 0, 0},
		{"latency", Options{Latency: 150 * time.Millisecond}, "", nil, 150 * time.Millisecond, 150 * time.Millisecond},
		{"latency and jitter", Options{Latency: 150 * time.Millisecond, Jitter: 50 * time.Millisecond}, "", nil, 150 * time.Millisecond, 200 * time.Millisecond},
		{"header replaces the latency", Options{Latency: 150 * time.Millisecond}, "", []string{DelayHeader, "300ms"}, 300 * time.Millisecond, 300 * time.Millisecond},
		{"rule adds to the header", Options{}, `{"path":"/v1/plans","delay":"1s"}`, []string{DelayHeader, "300ms"}, 1300 * time.Millisecond, 1300 * time.Millisecond},
		{"rule of another path", Options{}, `{"path":"/v1/users/*","delay":"1s"}`, nil, 0, 0},
		{"capped", Options{Latency: time.Second}, `{"path":"/v1/plans","delay":"60s"}`, nil, MaxDelay, MaxDelay},
		{"header ignored without admin", Options{NoAdmin: true, Latency: time.Second}, "", []string{DelayHeader, "5s"}, time.Second, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, d := recordingServer(t, tc.opts)
			if tc.rule != "" {
				if rec := serve(s, "POST", "/__admin/faults", tc.rule); rec.Code != http.StatusCreated {
					t.Fatalf("POST /__admin/faults: %d %s", rec.Code, rec.Body)
				}
			}
			rec := serve(s, "GET", "/v1/plans", "", tc.headers...)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET /v1/plans: %d %s", rec.Code, rec.Body)
			}
			if got := d.last(t); got < tc.min || got > tc.max {
				t.Errorf("delay %s, want %s to %s", got, tc.min, tc.max)
			}
		})
	}
}

// Admin calls and the documentation are never delayed.
func TestNoDelayOutsideTheAPI(t *testing.T) {
	t.Parallel()
	s, d := recordingServer(t, Options{Latency: time.Second})
	serve(s, "GET", "/__admin/requests", "")
	serve(s, "POST", "/__admin/faults", `{"path":"/**","delay":"2s"}`)
	serve(s, "GET", "/openapi.json", "")
	serve(s, "GET", "/", "")
	if len(d.got) != 0 {
		t.Errorf("delays %v outside the API", d.got)
	}
}

func TestBadDelayHeader(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"soon", "-1s", "61s", "1h"} {
		s, d := recordingServer(t, Options{})
		rec := serve(s, "GET", "/v1/plans", "", DelayHeader, v)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), pricing.CodeInvalidMockHeader.String()) {
			t.Errorf("%s: %s: %d %s, want 400 %s", DelayHeader, v, rec.Code, rec.Body, pricing.CodeInvalidMockHeader)
		}
		if len(d.got) != 0 {
			t.Errorf("%s: %s: delayed %v", DelayHeader, v, d.got)
		}
	}
}

// A client that gives up ends the wait: the request's context is honoured.
func TestDelayHonoursTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleep(ctx, MaxDelay); !errors.Is(err, context.Canceled) {
		t.Fatalf("sleep with an ended context: %v, want context.Canceled", err)
	}
	s := mustNew(t, Options{})
	req := httptest.NewRequest("PUT", "/v1/users/1", strings.NewReader(`{}`)).WithContext(ctx)
	req.Header.Set(DelayHeader, "59s")
	req.Header.Set("Authorization", "api-key "+s.Profile().APIKey)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req) // would take 59 s if the context were ignored
	if rec.Body.Len() != 0 {
		t.Errorf("an answer was written for a client that left: %d %s", rec.Code, rec.Body)
	}
}

func TestNewRefusesTooMuchLatency(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{{Latency: -time.Second}, {Jitter: -time.Second}, {Latency: 50 * time.Second, Jitter: 11 * time.Second}} {
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), "latency") {
			t.Errorf("New(latency %s, jitter %s): %v, want an error about latency", o.Latency, o.Jitter, err)
		}
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"/v1/users/*", "/v1/users/1", true},
		{"/v1/users/*", "/v1/users/1/clients", false},
		{"/v1/users/*", "/v1.0/users/1", false},
		{"/v1*/users/*", "/v1.0/users/1", true},
		{"/v1/**", "/v1/users/1/clients", true},
		{"/v1/users/?", "/v1/users/12", false},
		{"/v1.0/plans", "/v1x0/plans", false},
		{"/**", "/anything/at/all", true},
	}
	for _, tc := range cases {
		if got := globRE(tc.glob).MatchString(tc.path); got != tc.want {
			t.Errorf("%s matches %s: %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}
