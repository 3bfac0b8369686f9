package mockserver

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A named namespace no request used for Limits.NamespaceIdle is dropped
// with its journal, rules and share of the data bound; the default one
// never is.
func TestIdleNamespacesDropped(t *testing.T) {
	t.Parallel()
	s := mustNew(t, Options{Limits: Limits{NamespaceIdle: time.Hour}})
	now := time.Now()
	s.spaces.now = func() time.Time { return now }
	rename(t, s, "idle", "Idle")
	rename(t, s, "busy", "Busy")
	serve(s, "POST", "/__admin/faults", `{"path":"/nowhere","status":500}`, NamespaceHeader, "idle")
	usedWithIdle := s.pool.Used()
	for range 6 {
		now = now.Add(16 * time.Minute)
		firstName(t, s, "busy")
	}
	names := []string{}
	for _, ns := range s.spaces.all() {
		names = append(names, nsName(ns))
	}
	if fmt.Sprint(names) != "[default busy]" {
		t.Fatalf("namespaces after 96 minutes %v; want the idle one dropped", names)
	}
	if s.pool.Used() >= usedWithIdle || s.rules.n.Load() != 0 {
		t.Errorf("the idle namespace's data (%d -> %d bytes) or rules (%d) were not given back", usedWithIdle, s.pool.Used(), s.rules.n.Load())
	}
	if got := firstName(t, s, "idle"); got != "Quinn" {
		t.Errorf("the idle namespace came back as %q, want a fresh seed", got)
	}
	if got := firstName(t, s, "busy"); got != "Busy" {
		t.Errorf("the busy namespace lost its data: %q", got)
	}
}

// TestRuleSize holds a fault rule at its bounds to what DefaultLimits
// counts for it (32 KiB, TestMemoryBudget): the heap measured around 100
// of the largest rules. Not parallel: nothing else allocates meanwhile.
func TestRuleSize(t *testing.T) {
	s := mustNew(t, Options{})
	body := `"` + strings.Repeat("x", maxRuleBody-8) + `"`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 100
	for i := range n {
		glob := "/" + strings.Repeat("*?", (maxRulePath-8)/2) + fmt.Sprintf("%07d", i)
		rec := serve(s, "POST", "/__admin/faults", `{"path":"`+glob+`","status":500,"body":`+body+`}`, NamespaceHeader, "rules")
		if rec.Code != 201 {
			t.Fatalf("POST /__admin/faults: %d %s", rec.Code, rec.Body)
		}
		serve(s, "GET", "/v1/plans", "", NamespaceHeader, "rules") // the patterns run once
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("a rule at its bounds keeps about %d bytes", per)
	if per > 32<<10 {
		t.Errorf("a rule at its bounds keeps about %d bytes, more than the 32 KiB the budget counts", per)
	}
	runtime.KeepAlive(s)
}

// serveFrom is serve from a client address.
func serveFrom(s *Server, addr, ns string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", "/v1/plans", nil)
	req.Host = "127.0.0.1:8080"
	req.RemoteAddr = addr + ":40000"
	req.Header.Set(NamespaceHeader, ns)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// A client (an address) makes at most Limits.NamespaceRate new namespaces
// a minute, in a burst or spread; past it 409 with Retry-After, while
// other clients, and its own namespaces, go on.
func TestNamespaceCreationRate(t *testing.T) {
	t.Parallel()
	s := mustNew(t, Options{Limits: Limits{NamespaceRate: 3}})
	defer s.Close()
	now := time.Now()
	s.spaces.now = func() time.Time { return now }
	for i := range 3 {
		if rec := serveFrom(s, "192.0.2.1", fmt.Sprintf("a-%d", i)); rec.Code != 200 {
			t.Fatalf("new namespace %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	rec := serveFrom(s, "192.0.2.1", "a-3")
	if rec.Code != 409 || rec.Header().Get("Retry-After") != "20" || !strings.Contains(rec.Body.String(), "LimitReached") {
		t.Errorf("a fourth new namespace in a minute: %d, Retry-After %q, %s; want 409 LimitReached, Retry-After 20", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := serveFrom(s, "192.0.2.1", "a-0"); rec.Code != 200 {
		t.Errorf("a namespace it made: %d", rec.Code)
	}
	if rec := serveFrom(s, "192.0.2.2", "b-0"); rec.Code != 200 {
		t.Errorf("another client's new namespace: %d", rec.Code)
	}
	now = now.Add(20 * time.Second)
	if rec := serveFrom(s, "192.0.2.1", "a-3"); rec.Code != 200 {
		t.Errorf("20 s later: %d, want one more", rec.Code)
	}
	if rec := serveFrom(s, "192.0.2.1", "a-4"); rec.Code != 409 {
		t.Errorf("and then: %d, want 409", rec.Code)
	}
}

// A full table heals by itself: a new name takes the place of the
// namespace unused longest once no request used it for
// Limits.NamespaceEvictIdle, and never of one used since.
func TestFullNamespacesHeal(t *testing.T) {
	t.Parallel()
	s := mustNew(t, Options{Limits: Limits{Namespaces: 3, NamespaceEvictIdle: 5 * time.Minute}})
	defer s.Close()
	start := time.Now()
	now := start
	s.spaces.now = func() time.Time { return now }
	rename(t, s, "oldest", "Oldest")
	now = now.Add(time.Second)
	rename(t, s, "kept", "Kept")
	rename(t, s, "third", "Third")
	now = start.Add(4 * time.Minute)
	firstName(t, s, "kept")
	if rec := serveFrom(s, "192.0.2.9", "newcomer"); rec.Code != 409 {
		t.Fatalf("with three namespaces used in the last 5 minutes, a new one: %d, want 409", rec.Code)
	}
	now = start.Add(5 * time.Minute)
	if rec := serveFrom(s, "192.0.2.9", "newcomer"); rec.Code != 200 {
		t.Fatalf("once one was unused for 5 minutes, a new one: %d %s, want 200", rec.Code, rec.Body)
	}
	if got := firstName(t, s, "kept"); got != "Kept" {
		t.Errorf("a namespace used meanwhile lost its data: %q", got)
	}
	names := []string{}
	for _, ns := range s.spaces.all() {
		names = append(names, nsName(ns))
	}
	if fmt.Sprint(names) != "[default kept newcomer third]" {
		t.Errorf("namespaces %v; want the oldest one gone", names)
	}
}
