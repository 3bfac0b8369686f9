package mockserver

import (
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// SeedHeader names the seed a mock serves on every answer: "default" when
// its accounts A and B and its catalogues are the embedded seed's (further
// pairs of accounts aside), "custom" otherwise. The contract suite takes the
// mock's seed values for the profile keys it was not given only where the
// target says "default", so that no value of the default seed stands in for
// a foreign target's.
const SeedHeader = "Pricing-Mock-Seed"

// embeddedSeed is the embedded default seed, loaded once.
var embeddedSeed = sync.OnceValue(func() *pricing.Seed {
	seed, err := pricing.LoadSeed(fixtures.Seed())
	if err != nil {
		panic("mockserver: the embedded seed does not load: " + err.Error()) // checked by the tests
	}
	return seed
})

// seedKind is the SeedHeader value of seed.
func seedKind(seed *pricing.Seed) string {
	if seed.SameDefaults(embeddedSeed()) {
		return "default"
	}
	return "custom"
}

// announceSeed sets SeedHeader on every answer, from the current seed.
func (s *Server) announceSeed(c *gin.Context) {
	c.Header(SeedHeader, *s.kind.Load())
	c.Next()
}
