package mockserver

import (
	"fmt"
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
	s, err := New(Options{Limits: Limits{NamespaceIdle: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
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
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
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
