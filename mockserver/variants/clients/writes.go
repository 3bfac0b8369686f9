package clients

import (
	"encoding/json"
	"net/http"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// POST /clients and PUT /clients/:clientId: what they answer and store, and the app that comes with a client (2.2, 4.3, 4.4).
var writesServers = []variants.Server{
	{Name: "app-on-put-accepted", Rule: "4.4", Why: "PUT /clients/:clientId accepts (and ignores) an app", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.AppOnUpdateIgnored = true },
	},
	{Name: "invalid-app-client-created", Rule: "4.3", Why: "POST /clients with an invalid app creates the client anyway, answers 200 and drops the app", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.InvalidAppDropped = true },
	},
	{Name: "client-update-not-stored", Rule: "4.4", Why: "PUT /clients/:clientId answers the new values but does not store them", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.ClientUpdateNotStored = true },
	},
	{Name: "client-createdDate-changes-on-update", Rule: "2.2", Why: "PUT /clients/:clientId answers createdDate as the time of the update", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PutClient, func(o map[string]any) { o["createdDate"] = variants.Now() }),
	},
	{Name: "client-createdDate-unset", Rule: "2.2", Why: "POST /clients answers createdDate 0001-01-01T00:00:00Z, a date never set", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostClients, func(o map[string]any) { o["createdDate"] = variants.UnsetDate }),
	},
	{Name: "client-ids-repeat", Rule: "2.2", Why: "every client POST /clients creates answers the id 1", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostClients, func(o map[string]any) { o["id"] = json.Number("1") }),
	},
	{Name: "refused-client-update-stores-address", Rule: "4.4", Why: "a PUT /clients/:clientId answered 400 for one field still stores the valid address it carried", Origin: variants.Gate3,
		Wrap: variants.StoreRefused("/clients/*", variants.ClientBody, func(b map[string]any) (map[string]any, bool) {
			line1, ok1 := variants.ValidText(b, "addressLine1")
			city, ok2 := variants.ValidText(b, "addressCity")
			return map[string]any{"addressLine1": line1, "addressCity": city}, ok1 && ok2
		})},
	{Name: "client-app-dropped", Rule: "4.3", Why: "POST /clients ignores its app: the client is created, the app is not", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PostClients, func(b map[string]any) bool { return variants.Drop(b, "app") }),
	},
	{Name: "client-app-to-primary", Rule: "4.3", Why: "the app of POST /clients joins the caller's first client, and the new client has none", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.ClientAppToPrimary = true },
	},
	{
		Name:   "post-clients-201",
		Rule:   "4",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4: "Every endpoint below returns HTTP 200 on success"; POST /clients answers 201 Created`,
		Wrap:   variants.StatusOf("POST", "/clients", http.StatusOK, http.StatusCreated, false),
	},
	{
		Name:   "put-clients-204",
		Rule:   "4.4",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.4: "Response 200: the client object of section 2.2"; PUT /clients answers 204 with no body`,
		Wrap:   variants.StatusOf("PUT", "/clients/*", http.StatusOK, http.StatusNoContent, true),
	},
	{
		Name:   "app-accepted-on-put-clients",
		Rule:   "4.4",
		Origin: variants.BlindAudit1("caught"),
		Why:    "§4.4: \"The `app` property must not be given to this endpoint ... the rule is that it is not accepted\"; PUT /clients ignores it and answers 200",
		Wrap: variants.RewriteWhen(variants.PutClient, func(_ *http.Request, body map[string]any) bool {
			return variants.Drop(body, "app")
		}),
	},
	{
		Name:   "post-clients-bad-app-keeps-client",
		Rule:   "4.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.3: with an app, POST /clients "either creates both or returns an error and creates neither"; an invalid app answers 400 but the client is created`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := variants.At(r, "POST", "/clients"); !ok {
					next.ServeHTTP(w, r)
					return
				}
				body := variants.PeekJSON(r)
				rewrite.Answers(next, func(a *rewrite.Answer) {
					if a.Status != http.StatusBadRequest || body == nil || !variants.OnlyErrorsUnder(a, "app.") {
						return
					}
					without := map[string]any{}
					for k, v := range body {
						if k != "app" {
							without[k] = v
						}
					}
					if st, _ := variants.Call(next, r, "POST", "/clients", without); st == http.StatusOK {
						hit()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
	{
		Name:   "refused-put-clients-stores-name",
		Rule:   "7.1, 4.4",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§7.1/§4.4: a PUT /clients refused with 400 changes nothing; here the new name of a body refused for another field (terms) is stored`,
		Wrap: variants.StoreRefused("/clients/*", variants.ClientBody, func(b map[string]any) (map[string]any, bool) {
			name, ok := variants.ValidText(b, "name")
			return map[string]any{"name": name}, ok
		}),
	},
	{
		Name:   "one-client-per-user",
		Legal:  true,
		Rule:   "1, 7.2",
		Origin: variants.BuiltIn,
		Why: "§1: \"A client can have several users who manage the same apps\" says nothing of a user with several clients; " +
			"§7.2: 403 when \"The caller may not view or modify the resource\": a user who has a client may not create another " +
			"(POST /clients, PUT /users with a client), refused before the body is looked at",
		Profile: map[string]string{"clients_per_user": "one"},
		Wrap:    oneClientPerUser(http.StatusForbidden, pricing.CodeForbidden.String()),
	},
	{
		Name:   "one-client-per-user-400",
		Legal:  true,
		Rule:   "1, 7.2, 4.3, 7.3",
		Origin: variants.BuiltIn,
		Why: "§1 (as one-client-per-user), refused as a validation failure: §7.2 \"400 | Validation failure\"; " +
			"§4.3 names no code for it, and §7.3's codes for the client endpoints are not all shown",
		Profile: map[string]string{"clients_per_user": "one"},
		Wrap:    oneClientPerUser(http.StatusBadRequest, "ClientLimitReached"),
	},
}

// oneClientPerUser refuses a second client, with status and code: POST
// /clients, and PUT /users with a client, from a user who has a client.
// The mock says who is authenticated and who may change the user (a probe
// with an invalid email), and whether the caller has a client (POST /apps
// with a malformed hash: 400 with a client, 403 NoClient without).
func oneClientPerUser(status int, code string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, ok := variants.Parse(r.URL.Path)
			postClient := ok && variants.ToCollection(http.MethodPost, "clients")(r, p)
			putUser := ok && variants.ToMember(http.MethodPut, "users")(r, p)
			if putUser {
				body, _ := variants.DecodeObject(variants.PeekBody(r))
				_, putUser = variants.BodyPath(body, "client")
			}
			if !postClient && !putUser {
				next.ServeHTTP(w, r)
				return
			}
			hit()
			if putUser {
				if a := variants.Send(next, r, http.MethodPut, r.URL.Path, []byte(`{"email":"not-an-email"}`)); a.Status != http.StatusBadRequest {
					variants.Write(w, a)
					return
				}
			}
			switch a := variants.Send(next, r, http.MethodPost, p.Version+"/apps", []byte(`{"marketapp":{"hash":"x"}}`)); a.Status {
			case http.StatusBadRequest: // authenticated, with a client
				variants.WriteError(w, status, code, "You have a client already; a user may hold only one.")
			case http.StatusUnauthorized:
				variants.Write(w, a)
			default: // no client yet
				next.ServeHTTP(w, r)
			}
		})
	}
}
