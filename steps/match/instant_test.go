package match

import "testing"

// TestInstants: ISO 8601 values compared as the instants they may name, each
// as precise as it is written.
func TestInstants(t *testing.T) {
	tests := []struct {
		a, b          string
		same, noEarly bool
	}{
		{"2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z", true, true},
		{"2026-01-02T15:04:05Z", "2026-01-02T20:34:05.000+05:30", true, true},
		{"2026-01-02T15:04:05Z", "20260102T100405-0500", true, true},
		{"2026-01-02T15:04:05.999Z", "2026-01-02T15:04:05Z", true, true},
		{"2026-01-02T15:04:06Z", "2026-01-02T15:04:05Z", false, true},
		{"2026-01-02T15:04:05Z", "2026-01-02T15:04:06Z", false, false},
		{"2026-01-02T15:04:05.100Z", "2026-01-02T15:04:05.200Z", false, false},
		{"2026-01-02T15:04Z", "2026-01-02T15:04:59Z", true, true},
		// A date is any moment of that day, in any zone.
		{"2026-01-02", "2026-01-02T23:59:59Z", true, true},
		{"2026-01-02", "2026-01-03T10:00:00Z", true, true},
		{"2026-01-02", "2026-01-04T00:00:00Z", false, false},
		{"2026-01-03", "2026-01-01T12:00:00Z", false, true},
		// A local time, in some zone.
		{"2026-01-02T15:04:05", "2026-01-02T01:04:05Z", true, true},
		{"2026-01-02T15:04:05", "2026-01-03T15:04:05Z", false, false},
		{"0001-01-01T00:00:00Z", "2026-01-02T15:04:05Z", false, false},
	}
	for _, tt := range tests {
		a, err := ParseISORange(tt.a)
		if err != nil {
			t.Fatalf("%s: %v", tt.a, err)
		}
		b, err := ParseISORange(tt.b)
		if err != nil {
			t.Fatalf("%s: %v", tt.b, err)
		}
		if got := a.SameInstant(b); got != tt.same {
			t.Errorf("%s same instant as %s: %v, want %v", tt.a, tt.b, got, tt.same)
		}
		if got := b.SameInstant(a); got != tt.same {
			t.Errorf("%s same instant as %s: %v, want %v (not symmetric)", tt.b, tt.a, got, tt.same)
		}
		if got := a.NoEarlierThan(b); got != tt.noEarly {
			t.Errorf("%s no earlier than %s: %v, want %v", tt.a, tt.b, got, tt.noEarly)
		}
	}
	for _, bad := range []string{"", "2026-02-30", "yesterday", "Mon, 02 Jan 2006 15:04:05 GMT"} {
		if _, err := ParseISORange(bad); err == nil {
			t.Errorf("%q was read as a date", bad)
		}
	}
	for s, whole := range map[string]string{"2026-01-02": "24h0m0s", "2026-01-02T15:04Z": "1m0s", "2026-01-02T15:04:05Z": "1s", "2026-01-02T15:04:05.25Z": "10ms", "2026-01-02T15:04:05.123456789123Z": "1ns"} {
		if r, err := ParseISORange(s); err != nil || r.Whole.String() != whole {
			t.Errorf("%s: resolution %v, %v; want %s", s, r.Whole, err, whole)
		}
	}
}
