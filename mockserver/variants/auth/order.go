package auth

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// Authentication comes first, and answers 401 where it fails (5, 7.2).
var orderServers = []variants.Server{
	{Name: "unauthorized-as-403", Rule: "7.2", Why: "a request that is not authenticated is answered 403 instead of 401", Origin: variants.BuiltIn,
		Answer: variants.RemapStatus(http.StatusUnauthorized, http.StatusForbidden),
	},
	{Name: "auth-not-enforced-put-clients", Rule: "5", Why: "PUT /clients/:clientId runs without authentication", Origin: variants.BuiltIn,
		Request: func(r *http.Request) {
			if variants.PutClient(r) {
				variants.DropCredentials(r)
				r.Header.Set("Authorization", "api-key "+nobodyKey)
			}
		},
		Deviate: func(d *pricing.Deviations) { d.NobodyAPIKey = nobodyKey },
	},
	{Name: "unknown-id-404-before-auth", Rule: "5", Why: "PUT /users/:userId or /clients/:clientId without credentials is answered 404 when the id names nothing, before authenticating", Origin: variants.Gate3,
		Answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusUnauthorized && (variants.PutUser(a.Request) || variants.PutClient(a.Request)) && !knownID(a.Request.URL.Path) {
				variants.SetError(a, http.StatusNotFound, pricing.CodeNotFound.String(), "There is no such resource.")
			}
		},
	},
	{Name: "invalid-body-400-before-auth", Rule: "5", Why: "a request with a body that fails validation is answered 400 before its credentials are checked", Origin: variants.Gate3,
		Request: func(r *http.Request) {
			if r.Method != http.MethodGet && obviouslyInvalid(r) {
				r.Header.Set(invalidMark, "1")
			}
		},
		Answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusUnauthorized && a.Request.Header.Get(invalidMark) != "" {
				variants.SetError(a, http.StatusBadRequest, pricing.CodeInvalidBody.String(), "The body is invalid.")
				a.Body = variants.Encode([]variants.FieldError{{FieldName: "email", Error: pricing.CodeInvalidEmail.String(), Message: "The body is invalid."}})
			}
		},
	},
	// Legal since the sixth blind audit's correct server, a router with
	// typed parameters, refused such paths 404 before its credentials: an
	// id that is no id tells nothing of which ids exist (README, where the
	// spec is silent, malformed-id).
	{Name: "malformed-id-400-before-auth", Legal: true, Rule: "5", Why: "PUT /users/:userId without credentials and with a path id that is no number is answered 400 (README, where the spec is silent, 4: a path id that is no id may be refused 400 or 404 before the credentials are read)", Origin: variants.Gate3,
		// A Wrap, so that the catalogue sees it act (a legal reading must).
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return variants.PutUser(r) || variants.PutClient(r) },
			func(a *rewrite.Answer, _ map[string]any) bool {
				if _, err := strconv.ParseInt(a.Request.URL.Path[strings.LastIndexByte(a.Request.URL.Path, '/')+1:], 10, 64); a.Status != http.StatusUnauthorized || err == nil {
					return false
				}
				variants.SetError(a, http.StatusBadRequest, pricing.CodeInvalidBody.String(), "The id is not a number.")
				return true
			}),
	},
	{Name: "unauthenticated-update-applied", Rule: "5", Why: "a PUT /users/:userId without credentials is applied to the user, then answered 401", Origin: variants.FaultClasses,
		Request: func(r *http.Request) {
			if variants.PutUser(r) && !variants.HasCredentials(r) {
				r.Header.Set("Authorization", "api-key "+nobodyKey)
				r.Header.Set(variants.AnonymousMark, "1")
			}
		},
		Deviate: func(d *pricing.Deviations) { d.NobodyAPIKey, d.NobodyMayActOnUsers = nobodyKey, true },
		Answer: func(a *rewrite.Answer) {
			if a.Request.Header.Get(variants.AnonymousMark) != "" {
				variants.SetError(a, http.StatusUnauthorized, pricing.CodeUnauthorized.String(), "Authentication is required.")
			}
		},
	},
	{
		Name:   "no-credentials-403",
		Rule:   "5, 7.2",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5/§7.2: a request that is not authenticated gets 401 (Unauthorized); with no credentials at all this one answers 403`,
		Wrap: variants.StatusWhen(func(r *http.Request) bool { return !variants.PostLogin(r) && !variants.HasCredentials(r) },
			http.StatusUnauthorized, http.StatusForbidden, false),
	},
	{
		Name:   "bad-api-key-403-on-post-apps",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401"; POST /apps answers a wrong API key with 403`,
		Wrap: variants.StatusWhen(func(r *http.Request) bool { return variants.PostApps(r) && r.Header.Get("Authorization") != "" },
			http.StatusUnauthorized, http.StatusForbidden, false),
	},
	{
		Name:   "validation-before-auth-on-post-clients",
		Rule:   "5",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§5: an endpoint that needs authentication answers an unauthenticated request with 401; POST /clients validates the body first and answers 400 InvalidName`,
		Wrap: variants.RefuseWhen(func(r *http.Request) bool { return variants.PostClients(r) && !variants.HasCredentials(r) },
			"name", pricing.CodeInvalidName.String(), "name is required.", func(_ *http.Request, body map[string]any) bool {
				name, _ := variants.Str(body, "name")
				return body != nil && strings.TrimSpace(name) == ""
			}),
	},
	{
		Name:   "platforms-authenticated",
		Legal:  true,
		Rule:   "4.5, 5",
		Origin: variants.BuiltIn,
		Why: "§4.5: the platforms collection's \"path, parameters and item fields: not shown\", nor whether it needs " +
			"authentication; §5: \"When a request to an endpoint that needs authentication is not authenticated correctly, " +
			"the response is HTTP 401\"",
		Wrap: variants.Intercept(variants.Routed(variants.ToCollection(http.MethodGet, "platforms")), func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request) {
			hit()
			// Credentials are valid when the mock lets them reach a body check.
			version, _, _ := variants.Below(r.URL.Path)
			if a := variants.Send(next, r, http.MethodPost, version+"/apps", []byte(`{"marketapp":{"hash":"x"}}`)); a.Status == http.StatusUnauthorized {
				variants.WriteError(w, http.StatusUnauthorized, pricing.CodeUnauthorized.String(), "Authenticate to read the platforms.")
				return
			}
			next.ServeHTTP(w, r)
		}),
	},
}

// nobodyKey is the API key the servers that skip authentication send
// instead of a request's credentials. Told of it by
// Deviations.NobodyAPIKey, the domain takes it for no user at all, so the
// handler runs as it would for a route registered without authentication.
const nobodyKey = "defect-no-authentication"

// invalidMark tells the answer of invalid-body-400-before-auth that the
// body was invalid: the handler has read it by then.
const invalidMark = "X-Defect-Invalid-Body"

// knownID reports whether the id of a path to one user or client is one a
// seed could hold: a small positive number.
func knownID(path string) bool {
	id, err := strconv.ParseInt(path[strings.LastIndexByte(path, '/')+1:], 10, 64)
	return err == nil && id > 0 && id < 100000
}

// obviouslyInvalid reports whether a request's JSON body holds a value no
// body of the API takes: an email without @, an empty name, a number for an
// email, a string for a plan id.
func obviouslyInvalid(r *http.Request) bool {
	var b map[string]any
	if json.Unmarshal(variants.PeekBody(r), &b) != nil {
		return false
	}
	if e, ok := b["email"]; ok {
		if s, isStr := e.(string); !isStr || !strings.Contains(s, "@") {
			return true
		}
	}
	for _, k := range []string{"firstName", "name"} {
		if s, ok := b[k].(string); ok && s == "" {
			return true
		}
	}
	if _, ok := b["nextplan"].(string); ok {
		return true
	}
	return false
}
