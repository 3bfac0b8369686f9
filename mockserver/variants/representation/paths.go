package representation

import (
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// Base paths and the endpoints the spec names (4, 9).
var pathsServers = []variants.Server{
	{Name: "v1.0-not-served", Rule: "9", Why: "the base path v1.0 is not routed, only v1", Origin: variants.BuiltIn,
		Request: func(r *http.Request) {
			if variants.Under(r.URL.Path, "/v1.0") {
				// A path no route matches, so the mock answers as it does
				// any unknown path.
				rewrite.SetPath(r, "/not-routed"+r.URL.Path)
			}
		},
	},
	{Name: "unknown-version-served", Rule: "9", Why: "the base path v2 serves the v1 API instead of 404", Origin: variants.BuiltIn,
		Request: func(r *http.Request) {
			if variants.Under(r.URL.Path, "/v2") {
				rewrite.SetPath(r, "/v1"+strings.TrimPrefix(r.URL.Path, "/v2"))
			}
		},
	},
	{
		Name:    "v1-only",
		Legal:   true,
		Rule:    "9",
		Origin:  variants.BuiltIn,
		Why:     "§9: \"The endpoint pages show the form v1.0, and the overview describes the form v1. One version is currently available.\" This target serves it as v1 only",
		Profile: map[string]string{"version_forms": "v1"},
		Wrap:    onlyVersion("/v1"),
	},
	{
		Name:    "v1.0-only",
		Legal:   true,
		Rule:    "9",
		Origin:  variants.BuiltIn,
		Why:     "§9 (as v1-only): this target serves the one version as v1.0 only, and its profile's base URL says so",
		Profile: map[string]string{"base_url": "/v1.0", "version_forms": "v1.0"},
		Wrap:    onlyVersion("/v1.0"),
	},
	{
		Name:   "no-extensions",
		Legal:  true,
		Rule:   "4, 4.5",
		Origin: variants.BuiltIn,
		Why: "§4, §4.5: GET of a user, client or app, the catalogues other than platforms and the body of POST /users are not specified; " +
			"an implementation need not have them",
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if p, ok := variants.Parse(r.URL.Path); ok && isExtension(r.Method, p.Resource, p.ID, p.Rest) {
					hit()
					variants.WriteError(w, http.StatusNotFound, pricing.CodeNotFound.String(), "There is no such endpoint.")
					return
				}
				next.ServeHTTP(w, r)
			})
		},
	},
}

// isExtension reports whether a request goes to one of the mock's documented
// extensions rather than to an endpoint the spec names.
func isExtension(method, resource, id, rest string) bool {
	switch resource {
	case "currencies", "plans", "phoneCountries", "marketapps":
		return true
	case "users":
		return (id == "" && method == http.MethodPost) || rest != "" || (id != "" && method == http.MethodGet)
	case "clients":
		return rest != "" || (id != "" && method == http.MethodGet)
	case "apps":
		return id != "" || rest != ""
	}
	return false
}

// onlyVersion serves the API under one version segment: any other answers
// 404, as an unknown path does. hit is called for every API request vetted.
func onlyVersion(served string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if p, ok := variants.Parse(r.URL.Path); ok {
				hit()
				if p.Version != served {
					variants.WriteError(w, http.StatusNotFound, pricing.CodeNotFound.String(), "There is no such endpoint.")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}
