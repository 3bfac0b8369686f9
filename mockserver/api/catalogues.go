package api

import (
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The catalogues, by their index in the cache.
const (
	catPlatforms = iota
	catCurrencies
	catPlans
	catPhoneCountries
	catMarketapps
	numCatalogues
)

// catalogueCache holds the encoded answers of the catalogue routes for the
// stores that serve one seed's catalogues, which never change: each is
// encoded once, then answered as is. A newer seed replaces it.
type catalogueCache struct {
	mu      sync.Mutex
	current atomic.Pointer[catalogueAnswers]
}

type catalogueAnswers struct {
	seed *pricing.Seed
	body [numCatalogues]atomic.Pointer[[]byte]
}

// of is the answers of seed's catalogues, a fresh set when seed is not the
// one cached.
func (cc *catalogueCache) of(seed *pricing.Seed) *catalogueAnswers {
	if a := cc.current.Load(); a != nil && a.seed == seed {
		return a
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if a := cc.current.Load(); a != nil && a.seed == seed {
		return a
	}
	a := &catalogueAnswers{seed: seed}
	cc.current.Store(a)
	return a
}

// catalogueOf is the endpoint of one catalogue.
func catalogueOf(which int) endpoint {
	return endpoint{body: func(c *call) {
		c.commitWith(func() Response { return c.api.catalogue(c.st, which) })
	}}
}

func (a *API) catalogue(st *pricing.Store, which int) Response {
	seed := st.Catalogues()
	answers := a.answers.of(seed)
	if b := answers.body[which].Load(); b != nil {
		return Response{Status: http.StatusOK, Header: jsonHeader(), Body: *b}
	}
	b, err := jsonio.Encode(catalogueValue(st, which))
	if err != nil {
		return ErrorResponse(pricing.CodeInternal.Status(), []pricing.FieldError{{Error: pricing.CodeInternal, Message: "The response could not be encoded."}})
	}
	// Seeds only get newer: the same seed after the build means it read
	// that seed's catalogues.
	if st.Catalogues() == seed {
		answers.body[which].Store(&b)
	}
	return Response{Status: http.StatusOK, Header: jsonHeader(), Body: b}
}

func catalogueValue(st *pricing.Store, which int) any {
	switch which {
	case catPlatforms:
		ps := st.Platforms()
		out := make([]wirePlatform, 0, len(ps))
		for _, p := range ps {
			out = append(out, wirePlatform{ID: p.ID, Created: wireDate(p.Created), CreatorUserID: p.CreatorUserID, Name: p.Name})
		}
		return map[string]any{"platforms": out}
	case catCurrencies:
		cs := st.Currencies()
		out := make([]wireCurrency, 0, len(cs))
		for _, cur := range cs {
			out = append(out, wireCurrency(cur))
		}
		return map[string]any{"currencies": out}
	case catPlans:
		ps := st.Plans()
		out := make([]wirePlan, 0, len(ps))
		for _, p := range ps {
			out = append(out, wirePlan(p))
		}
		return map[string]any{"plans": out}
	case catPhoneCountries:
		ps := st.PhoneCountries()
		out := make([]wirePhoneCountry, 0, len(ps))
		for _, p := range ps {
			out = append(out, wirePhoneCountry(p))
		}
		return map[string]any{"phoneCountries": out}
	}
	ms := st.Marketapps()
	out := make([]wireMarketapp, 0, len(ms))
	for _, m := range ms {
		p, _ := st.Platform(m.PlatformID)
		out = append(out, wireMarketapp{Hash: m.Hash, Name: m.Name, Platform: wireNamedID{ID: p.ID, Name: p.Name}})
	}
	return map[string]any{"marketapps": out}
}
