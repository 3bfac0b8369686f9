package auth

import (
	"net/http"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// Two credentials in one request: the spec names each scheme alone (5).
var togetherServers = []variants.Server{
	{Name: "two-credentials-forbidden", Rule: "5", Origin: variants.Invariants,
		Why: `§5: 403 is for "the authenticated caller may not view or modify the resource"; this server answers 403 to any request that carries an api key and a session token together, even both of one account, whose own resource it is`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				token := r.Header.Get("session-token") != "" || r.URL.Query().Get("sessionToken") != ""
				if r.Header.Get("Authorization") != "" && token {
					hit()
					variants.WriteError(w, http.StatusForbidden, pricing.CodeForbidden.String(), "Send one credential.")
					return
				}
				next.ServeHTTP(w, r)
			})
		},
	},
}
