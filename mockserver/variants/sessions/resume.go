package sessions

import (
	"net/http"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// resumeServers take a login that carries a session for a session that
// already is (5: a session is obtained "with the credentials of the
// account to use", those of the body).
var resumeServers = []variants.Server{
	{Name: "login-answers-the-session-it-carries", Rule: "5", Origin: variants.Invariants,
		Why: `§5: "A client obtains a session by POST /sessions with the credentials of the account to use"; this server answers a login that carries a session token it knows with that session, whichever account the body's credentials are`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			answers := map[string][]byte{} // token -> the login's answer
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := variants.At(r, "POST", "/sessions"); !ok {
					next.ServeHTTP(w, r)
					return
				}
				carried := r.Header.Get("session-token")
				if carried == "" {
					carried = r.URL.Query().Get("sessionToken")
				}
				mu.Lock()
				body, known := answers[carried]
				mu.Unlock()
				if known {
					hit()
					variants.Write(w, &rewrite.Answer{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}}, Body: body})
					return
				}
				rewrite.Answers(next, func(a *rewrite.Answer) {
					if a.Status != http.StatusOK {
						return
					}
					var tok string
					a.EditJSON(func(v any) (any, bool) {
						if o, ok := v.(map[string]any); ok {
							tok, _ = o["token"].(string)
						}
						return v, false
					})
					if tok != "" {
						mu.Lock()
						answers[tok] = append([]byte(nil), a.Body...)
						mu.Unlock()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
}
