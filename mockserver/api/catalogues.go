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
		return listOf("platforms", st.Platforms(), func(p pricing.Platform) wirePlatform {
			return wirePlatform{ID: p.ID, Created: wireDate(p.Created), CreatorUserID: p.CreatorUserID, Name: p.Name}
		})
	case catCurrencies:
		return listOf("currencies", st.Currencies(), func(c pricing.Currency) wireCurrency { return wireCurrency(c) })
	case catPlans:
		return listOf("plans", st.Plans(), func(p pricing.Plan) wirePlan { return wirePlan(p) })
	case catPhoneCountries:
		return listOf("phoneCountries", st.PhoneCountries(), func(p pricing.PhoneCountry) wirePhoneCountry { return wirePhoneCountry(p) })
	}
	return listOf("marketapps", st.Marketapps(), func(m pricing.Marketapp) wireMarketapp {
		p, _ := st.Platform(m.PlatformID)
		return wireMarketapp{Hash: m.Hash, Name: m.Name, Platform: wireNamedID{ID: p.ID, Name: p.Name}}
	})
}
