package replay

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// lineageRecordings are the recordings made against the mock that the
// replay sends to servers of other lineages, as QA sends them to a staging
// server written without the mock.
func lineageRecordings(t *testing.T) map[string][]byte {
	return map[string][]byte{"journal": recordJournal(t), "har": recordHAR(t).har}
}

// replayOn replays a recording against a lineage's server, its profile
// written by init from the base URL and two accounts, as QA's would be. It
// returns the first divergence's label ("" none), or why the target was
// refused before a request was sent.
func replayOn(t *testing.T, s variants.Server, raw []byte) (diverged, refused string) {
	t.Helper()
	l, err := mocktarget.StartLineage(context.Background(), s, 1, true, t.TempDir())
	var ie *mocktarget.InitError
	switch {
	case errors.As(err, &ie):
		return "", "init: " + ie.Error()
	case err != nil:
		t.Fatal(err)
	}
	defer l.Close()
	rec, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), rec, l.Profile, Config{Seed: 1})
	if err != nil {
		return "", err.Error()
	}
	for _, o := range res.Outcomes {
		if o.State != Matched && o.State != Skipped {
			return o.Label + ": " + string(o.State) + ": " + o.Why, ""
		}
	}
	return "", ""
}

// Recordings made against the mock, replayed against the correct servers
// of other lineages (their own ids, tokens, base paths and choices where
// the spec is silent): every request matched or skipped. Under -short,
// each lineage's correct server alone.
func TestReplayAgainstOtherLineages(t *testing.T) {
	recs := lineageRecordings(t)
	for _, s := range catalogue.Lineages() {
		if !s.Legal || s.Lineage == nil {
			continue
		}
		if testing.Short() && s.Lineage.Fault != "" {
			continue // under -short, each lineage's correct server alone; its legal readings in the full run
		}
		for name, raw := range recs {
			if d, refused := replayOn(t, s, raw); d != "" || refused != "" {
				t.Errorf("the %s recording against %s, a correct server: %s%s", name, s.Name, d, refused)
			}
		}
	}
}

// The same recordings against the other lineages' own faults: a fault on a
// path the recordings use shows as a divergence. A recording checks only
// what the frontend did, so most faults are out of its reach; the floor
// is what these two recordings found on 2026-11-26 (22 of 59; the
// browser's HAR adds none), so that a change that loses one fails here.
func TestReplayFindsLineageFaults(t *testing.T) {
	testenv.SkipShort(t, "a replay per fault of the other lineages, twice")
	const floor = 22
	recs := lineageRecordings(t)
	found, faults := 0, 0
	for _, s := range catalogue.Lineages() {
		if s.Legal {
			continue
		}
		faults++
		var by []string
		for name, raw := range recs {
			d, refused := replayOn(t, s, raw)
			switch {
			case d != "":
				by = append(by, name+" at "+d)
			case refused != "":
				by = append(by, name+" refused it")
			}
		}
		if len(by) > 0 {
			found++
			t.Logf("found %s: %s", s.Name, strings.Join(by, "; "))
		} else {
			t.Logf("not reached %s", s.Name)
		}
	}
	t.Logf("the recordings found %d of the %d faults of other lineages", found, faults)
	if found < floor {
		t.Errorf("the recordings found %d of %d faults, fewer than the %d they found before", found, faults, floor)
	}
}
