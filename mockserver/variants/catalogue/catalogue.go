// Package catalogue is every server of mockserver/variants, the one place
// that lists the areas: it finds a server by name and serves it from the
// mock. pricing-mock --fault serves its wrong servers, cmd/pricing-mutation
// runs the suite against all of them, the explorer's tests measure against
// them.
package catalogue

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/apps"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/auth"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/clients"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/representation"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/sessions"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/users"
)

// all is every server, area by area in the order of variants.Areas.
var all = slices.Concat(auth.Servers, users.Servers, clients.Servers, apps.Servers, sessions.Servers, representation.Servers)

// probes is every area's probes, by server name.
var probes = func() map[string]probe.Probe {
	all := map[string]probe.Probe{}
	for _, area := range []map[string]probe.Probe{auth.Probes, users.Probes, clients.Probes, apps.Probes, sessions.Probes, representation.Probes} {
		maps.Copy(all, area)
	}
	return all
}()

// Probes is every area's probes, by the name of the server each tells
// apart from the mock.
func Probes() map[string]probe.Probe { return maps.Clone(probes) }

// All lists every server made from the mock, wrong and legal, in a stable
// order.
func All() []variants.Server { return slices.Clone(all) }

// Lineages lists the servers of other lineages (variants.Server.Lineage):
// implementations written independently of the mock, correct and with
// each of their own faults. Serve does not make them; cmd/internal/mocktarget
// starts them.
func Lineages() []variants.Server { return lineages.Servers() }

// Wrong lists the wrong servers, in the order of All: those of authors,
// or all of them for none.
func Wrong(authors ...variants.Author) []variants.Server {
	return pick(func(s variants.Server) bool { return !s.Legal }, authors)
}

// Legal lists the correct servers that chose otherwise where the spec is
// silent, in the order of All: those of authors, or all of them for none.
func Legal(authors ...variants.Author) []variants.Server {
	return pick(func(s variants.Server) bool { return s.Legal }, authors)
}

func pick(keep func(variants.Server) bool, authors []variants.Author) []variants.Server {
	var out []variants.Server
	for _, s := range all {
		if keep(s) && (len(authors) == 0 || slices.Contains(authors, s.Origin.Author)) {
			out = append(out, s)
		}
	}
	return out
}

// UnknownError is the error of a name that is no wrong server's.
type UnknownError struct{ Name string }

func (e *UnknownError) Error() string {
	var known []string
	for _, s := range Wrong() {
		known = append(known, s.Name)
	}
	return fmt.Sprintf("unknown fault %q (known: %s)", e.Name, strings.Join(known, ", "))
}

// Find returns the servers of names, in their order; a name that is no
// server's is an *UnknownError.
func Find(names []string) ([]variants.Server, error) {
	out := make([]variants.Server, 0, len(names))
	for _, name := range names {
		i := slices.IndexFunc(all, func(s variants.Server) bool { return s.Name == name })
		if i < 0 {
			return nil, &UnknownError{Name: name}
		}
		out = append(out, all[i])
	}
	return out, nil
}

// Serve builds a mock that is the servers together (none: the mock
// itself): its domain deviates as their Deviate says (opts.Deviations is
// replaced), their request rewrites run before their answer rewrites see
// the request, and their Wraps go around all that, the last outermost. hit
// is handed to every Wrap (nil: none). The Server is for what is not
// serving: Close, Profile, Store.
func Serve(opts mockserver.Options, hit func(), servers ...variants.Server) (*mockserver.Server, http.Handler, error) {
	for _, s := range servers {
		if s.Lineage != nil {
			return nil, nil, fmt.Errorf("%s is a server of another lineage, not the mock: it cannot be served from it", s.Name)
		}
	}
	opts.Deviations = pricingDeviations(servers)
	srv, err := mockserver.New(opts)
	if err != nil {
		return nil, nil, err
	}
	var h http.Handler = srv
	var requests []func(*http.Request)
	var answers []func(*rewrite.Answer)
	for _, s := range servers {
		if s.Request != nil {
			requests = append(requests, s.Request)
		}
		if s.Answer != nil {
			answers = append(answers, s.Answer)
		}
	}
	if len(answers) > 0 {
		h = rewrite.Answers(h, func(a *rewrite.Answer) {
			for _, rw := range answers {
				rw(a)
			}
		})
	}
	if len(requests) > 0 {
		h = rewrite.Requests(h, func(r *http.Request) {
			for _, rw := range requests {
				rw(r)
			}
		})
	}
	for _, s := range servers {
		if s.Wrap != nil {
			h = variants.Server{Wrap: s.Wrap}.Around(h, hit)
		}
	}
	return srv, h, nil
}

// pricingDeviations gathers what the servers change in the domain.
func pricingDeviations(servers []variants.Server) pricing.Deviations {
	var d pricing.Deviations
	for _, s := range servers {
		if s.Deviate != nil {
			s.Deviate(&d)
		}
	}
	return d
}
