// Package servers lists the servers the explorer's rate is measured on, as
// explore.Server values: the mock with each built-in defect, the blind
// audits' wrong and correct servers, and correct servers of the explorer's
// own that take the choices the independent implementations take where the
// spec is silent (legal.go). It is a small adapter over mockserver/defects
// and mockserver/variants, so that the tests and `make explore-rate` call
// explore.Rate on them; a catalogue of servers elsewhere needs only a list
// of explore.Server.
package servers

import (
	"net/http"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The origins of the servers, as the rate reports them.
const (
	OriginBuiltIn = "built-in defect"
	OriginMock    = "the mock"
	OriginOwn     = "explorer's legal variant"
)

// BlindAudits are the blind audits' rounds, oldest first: each round's
// wrong and correct servers.
var BlindAudits = []struct {
	Date         string
	Wrong, Legal []variants.Variant
}{
	{"2026-11-26", variants.Blind20261126.Wrong, variants.Blind20261126.Legal},
}

// Origin of a blind audit's servers.
func blindOrigin(date string) string { return "blind audit " + date }

// mock is a server made from the mock: its defects, a middleware in front
// of it, and what a correct profile of it says.
func mock(name, origin string, legal bool, ds []defects.Defect, wrap func(http.Handler) http.Handler, tune func(*steps.Profile), pairs int) explore.Server {
	return explore.Server{Name: name, Origin: origin, Legal: legal, Start: func() (explore.Target, error) {
		m, err := mocktest.Start(mocktest.Options{Defects: ds, Wrap: wrap, Pairs: pairs})
		if err != nil {
			return explore.Target{}, err
		}
		p := m.Profile
		if tune != nil {
			tune(&p)
		}
		return explore.Target{Profile: p, Close: m.Close}, nil
	}}
}

// Mock is the mock itself: the explorer must find nothing.
func Mock() explore.Server { return mock("mock", OriginMock, true, nil, nil, nil, 0) }

// BuiltIn is the mock with each built-in defect, alone.
func BuiltIn() []explore.Server {
	var out []explore.Server
	for _, d := range defects.All() {
		out = append(out, mock(d.Name, OriginBuiltIn, false, []defects.Defect{d}, nil, nil, 0))
	}
	return out
}

// Blind are the blind audits' servers, wrong and correct, every round's.
func Blind() []explore.Server {
	var out []explore.Server
	for _, a := range BlindAudits {
		for _, set := range []struct {
			legal bool
			vs    []variants.Variant
		}{{false, a.Wrong}, {true, a.Legal}} {
			for _, v := range set.vs {
				wrap := func(h http.Handler) http.Handler { return v.Wrap(h, func() {}) }
				out = append(out, mock(v.Name, blindOrigin(a.Date), set.legal, nil, wrap, nil, 0))
			}
		}
	}
	return out
}

// LatestBlindOrigin is the origin of the latest blind audit's servers.
func LatestBlindOrigin() string { return blindOrigin(BlindAudits[len(BlindAudits)-1].Date) }

// Wrong are the servers of a list that are not correct.
func Wrong(ss []explore.Server) []explore.Server {
	var out []explore.Server
	for _, s := range ss {
		if !s.Legal {
			out = append(out, s)
		}
	}
	return out
}

// Legal are the servers of a list that are correct.
func Legal(ss []explore.Server) []explore.Server {
	var out []explore.Server
	for _, s := range ss {
		if s.Legal {
			out = append(out, s)
		}
	}
	return out
}
