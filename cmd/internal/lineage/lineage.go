// Package lineage serves the implementations of other lineages
// (mockserver/variants/lineages): correct servers of the API written from
// the spec alone, each with its own store, ids and choices, and their own
// faults. The tests that prove the gates raise no false alarm on a server
// the mock did not make start them here.
package lineage

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/events"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/tables"
)

// Account is one login of a lineage's seed.
type Account struct{ Email, Password, APIKey string }

// Fault is a deliberate bug of a lineage, written by its author.
type Fault struct{ Name, Rule, Description string }

// Lineage is one independent implementation.
type Lineage struct {
	Name   string
	Faults []Fault
	// Known are the profile values a QA engineer knows of this target
	// that no answer of it shows (its choices.md documents its seed): on
	// top of what init finds, they let every scenario run.
	Known map[string]string
	start func(pairs int, fault string) (http.Handler, string, [][2]Account, error)
}

// All lists the lineages.
func All() []Lineage {
	return []Lineage{
		{Name: "tables", Faults: convert(tables.Faults(), func(f tables.Fault) Fault { return Fault{f.Name, f.Rule, f.Description} }),
			start: func(pairs int, fault string) (http.Handler, string, [][2]Account, error) {
				s, err := tables.New(tables.Options{Pairs: pairs, Fault: fault})
				if err != nil {
					return nil, "", nil, err
				}
				return s, s.BasePath(), convert(s.Accounts(), func(p [2]tables.Account) [2]Account {
					return [2]Account{{p[0].Email, p[0].Password, p[0].APIKey}, {p[1].Email, p[1].Password, p[1].APIKey}}
				}), nil
			}},
		{Name: "events", Faults: convert(events.Faults(), func(f events.Fault) Fault { return Fault{f.Name, f.Rule, f.Description} }),
			// choices.md, "Seed data": the marketplace apps, a phone country, the plans (whose
			// kinds show only in an app made with them) and the currencies
			// (whose codes show only in a client answer).
			Known: map[string]string{
				"marketapp_hash": "605179015a06decb9f2abf8e6c2f8b1245b75d74", "platform_id": "61", "phone_country_id": "512",
				"plans": "4017:lite,4058:pro,4093:dynamic", "currencies": "826:GBP,978:EUR,840:USD",
			},
			start: func(pairs int, fault string) (http.Handler, string, [][2]Account, error) {
				s, err := events.New(events.Options{Pairs: pairs, Fault: fault})
				if err != nil {
					return nil, "", nil, err
				}
				return s, s.BasePath(), convert(s.Accounts(), func(p [2]events.Account) [2]Account {
					return [2]Account{{p[0].Email, p[0].Password, p[0].APIKey}, {p[1].Email, p[1].Password, p[1].APIKey}}
				}), nil
			}},
	}
}

// Target is a lineage served on 127.0.0.1.
type Target struct {
	URL      string // the base URL, version segment included
	Accounts [][2]Account
	srv      *httptest.Server
}

// Close stops serving.
func (t *Target) Close() { t.srv.Close() }

// Start serves the lineage with pairs pairs of accounts and the fault
// named ("" for none).
func (l Lineage) Start(pairs int, fault string) (*Target, error) {
	h, base, accts, err := l.start(pairs, fault)
	if err != nil {
		return nil, fmt.Errorf("lineage %s: %w", l.Name, err)
	}
	srv := httptest.NewServer(h)
	return &Target{URL: srv.URL + base, Accounts: accts, srv: srv}, nil
}

// MustStart is Start for a test; the target stops when tb ends.
func (l Lineage) MustStart(tb testing.TB, pairs int, fault string) *Target {
	tb.Helper()
	t, err := l.Start(pairs, fault)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(t.Close)
	return t
}

// Env is what a user gives init and the suite of this target: the base
// URL and pair 1's accounts, as the PRICING_* variables.
func (t *Target) Env() map[string]string {
	a, b := t.Accounts[0][0], t.Accounts[0][1]
	return map[string]string{
		"PRICING_BASE_URL": t.URL,
		"PRICING_EMAIL":    a.Email, "PRICING_PASSWORD": a.Password, "PRICING_API_KEY": a.APIKey,
		"PRICING_OTHER_EMAIL": b.Email, "PRICING_OTHER_PASSWORD": b.Password, "PRICING_OTHER_API_KEY": b.APIKey,
	}
}

func convert[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}
