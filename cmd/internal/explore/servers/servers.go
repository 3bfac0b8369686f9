// Package servers lists the servers the explorer's rate is measured on, as
// Server values, from the catalogue of servers that are not the
// spec (mockserver/variants/catalogue): the mock itself, the team's wrong
// servers (the built-in defects) and legal variants, every blind audit's
// wrong and correct servers, and the implementations of other lineages
// with their own faults. It is a small adapter, so that the tests, make
// explore-rate and the catalogue's runner call Rate on the same
// list.
package servers

import (
	"context"
	"errors"
	"os"
	"slices"

	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The origins of the servers, as the rate reports them.
const (
	OriginMock    = "the mock"
	OriginBuiltIn = "built-in defect"          // the team's wrong servers
	OriginTeam    = "the team's legal variant" // the team's correct servers
)

// Origin is where a catalogue server comes from, as the rate groups it: a
// blind audit by its date, a lineage by its name, its faults apart.
func Origin(s variants.Server) string {
	switch {
	case s.Origin.Author == variants.Blind && s.Lineage != nil:
		// A blind audit that is a whole implementation: its correct
		// server and its faults are the audit's.
		return "blind audit " + s.Origin.Date + " (" + s.Origin.Round + ")"
	case s.Lineage != nil && s.Lineage.Fault == "":
		return "lineage " + s.Lineage.Name
	case s.Lineage != nil:
		return "lineage " + s.Lineage.Name + ": its faults"
	case s.Origin.Author == variants.Blind:
		// Two audits may share a day: the round tells them apart.
		return "blind audit " + s.Origin.Date + " (" + s.Origin.Round + ")"
	case s.Legal:
		return OriginTeam
	}
	return OriginBuiltIn
}

// Of is a catalogue server as the rate explores it, with pairs pairs of
// accounts: the mock made into it and the profile its Profile says, or a
// server of another lineage and the profile pricing-contract init writes of
// it, with the values its documentation gives.
func Of(s variants.Server, pairs int) Server {
	return Server{Name: s.Name, Origin: Origin(s), Legal: s.Legal, Start: func() (Target, error) {
		if s.Lineage != nil {
			return startLineage(s, pairs)
		}
		m, err := mocktest.Start(mocktest.Options{Servers: []variants.Server{s}, Pairs: pairs})
		if err != nil {
			return Target{}, err
		}
		p, err := mocktarget.Profile(m, s.Profile)
		if err != nil {
			m.Close()
			return Target{}, err
		}
		return Target{Profile: p, Close: m.Close}, nil
	}}
}

func startLineage(s variants.Server, pairs int) (Target, error) {
	dir, err := os.MkdirTemp("", "explore-lineage-")
	if err != nil {
		return Target{}, err
	}
	l, err := mocktarget.StartLineage(context.Background(), s, pairs, true, dir)
	var refused *mocktarget.InitError
	switch {
	case errors.As(err, &refused):
		os.RemoveAll(dir)
		// A target init refuses is one the suite refuses: as the
		// preflight's refusal, exit 3.
		return Target{}, &steps.UnusableError{Reason: refused.Error()}
	case err != nil:
		os.RemoveAll(dir)
		return Target{}, err
	}
	return Target{Profile: l.Profile, Close: func() { l.Close(); os.RemoveAll(dir) }}, nil
}

func of(ss []variants.Server) []Server {
	out := make([]Server, len(ss))
	for i, s := range ss {
		out[i] = Of(s, 1)
	}
	return out
}

// Mock is the mock itself: the explorer must find nothing.
func Mock() Server {
	m := Of(variants.Server{Name: "mock", Legal: true}, 1)
	m.Origin = OriginMock
	return m
}

// BuiltIn are the team's wrong servers, each the mock with one defect.
func BuiltIn() []Server { return of(catalogue.Wrong(variants.Team)) }

// Team are the team's legal variants: correct servers that chose otherwise
// where the spec is silent.
func Team() []Server { return of(catalogue.Legal(variants.Team)) }

// Blind are the blind audits' servers, wrong and correct, every round's.
func Blind() []Server {
	return of(slices.Concat(catalogue.Wrong(variants.Blind), catalogue.Legal(variants.Blind)))
}

// LatestBlindOrigin is the origin of the latest blind audit's servers.
func LatestBlindOrigin() string {
	latest := variants.Server{}
	for _, s := range slices.Concat(catalogue.Wrong(variants.Blind), catalogue.Lineages()) {
		if s.Origin.Author != variants.Blind || s.Legal {
			continue
		}
		if s.Origin.Date > latest.Origin.Date || s.Origin.Date == latest.Origin.Date && s.Origin.Round > latest.Origin.Round {
			latest = s
		}
	}
	return Origin(latest)
}

// Lineages are the implementations of other lineages, correct and with
// each of their authors' faults (a fault the table "Where the spec is
// silent" allows is a correct server, as the catalogue says).
func Lineages() []Server { return of(catalogue.Lineages()) }

// Wrong are the servers of a list that are not correct.
func Wrong(ss []Server) []Server {
	return slices.DeleteFunc(slices.Clone(ss), func(s Server) bool { return s.Legal })
}

// Legal are the servers of a list that are correct.
func Legal(ss []Server) []Server {
	return slices.DeleteFunc(slices.Clone(ss), func(s Server) bool { return !s.Legal })
}
