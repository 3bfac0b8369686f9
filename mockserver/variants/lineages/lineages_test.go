package lineages

import (
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// TestEveryFaultHasItsPlace: each fault of a lineage is listed with an area,
// a rule and a why, and each lineage's table names only faults it has.
func TestEveryFaultHasItsPlace(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Servers() {
		if s.Lineage == nil || s.Area == "" || s.Rule == "" || s.Why == "" || s.Origin.Author != variants.Independent && s.Origin.Author != variants.Blind {
			t.Errorf("%s: lineage %v, area %q, rule %q, author %q", s.Name, s.Lineage, s.Area, s.Rule, s.Origin.Author)
		}
		if seen[s.Name] {
			t.Errorf("%s twice", s.Name)
		}
		seen[s.Name] = true
		if s.Lineage != nil && s.Lineage.Fault != "" {
			delete(areaOf, s.Lineage.Fault)
		}
	}
	for name := range areaOf {
		t.Errorf("areaOf names %q, which no lineage has", name)
	}
	for _, l := range []lineage{tablesLineage(), eventsLineage(), documentsLineage(), ledgerLineage()} {
		for name := range l.missed {
			if !seen[l.name+"-"+name] {
				t.Errorf("%s: missed names %q, no fault of it", l.name, name)
			}
		}
		for name := range l.legal {
			if !seen[l.name+"-"+name] {
				t.Errorf("%s: legal names %q, no fault of it", l.name, name)
			}
		}
	}
}
