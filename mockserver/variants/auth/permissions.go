package auth

import (
	"net/http"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// Each caller acts on its own user and its own clients only, and is told 403 otherwise (5, 7.2).
var permissionsServers = []variants.Server{
	{Name: "forbidden-as-404", Rule: "7.2", Why: "another user's or client's resource is answered 404 instead of 403", Origin: variants.BuiltIn,
		Answer: variants.RemapStatus(http.StatusForbidden, http.StatusNotFound),
	},
	{Name: "user-permission-skipped", Rule: "5", Why: "a user may modify another user (answered 200, not 403)", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.AnyUserMayAct = true },
	},
	{Name: "client-permission-skipped", Rule: "5", Why: "a user may modify a client it is not a member of (answered 200, not 403)", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.AnyoneMayActOnClients = true },
	},
	{Name: "forbidden-update-applied", Rule: "5", Why: "a PUT /users/:userId or /clients/:clientId the caller may not make is applied, then answered 403", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.PermissionCheckedAfterWrite = true },
		Answer: func(a *rewrite.Answer) {
			// The store refuses the update it stored (ErrRefusedAfterWrite),
			// which the mock, knowing no such refusal, answers 500.
			if (variants.PutUser(a.Request) || variants.PutClient(a.Request)) && a.Status == http.StatusInternalServerError {
				variants.SetError(a, http.StatusForbidden, pricing.CodeForbidden.String(), "You may not modify this resource.")
			}
		},
	},
	{
		Name:   "foreign-user-404",
		Rule:   "5, 7.2",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5/§7.2: "When the authenticated caller may not view or modify the resource, the response is HTTP 403"; PUT /users on another existing user answers 404`,
		Wrap:   variants.StatusOf("PUT", "/users/*", http.StatusForbidden, http.StatusNotFound, false),
	},
	{
		Name:   "permission-first",
		Legal:  true,
		Rule:   "5, 7.2",
		Origin: variants.BuiltIn,
		Why:    "§5, §7.2: 403 and 404 are both named and their order is not; an implementation may refuse a caller before it looks the id up",
		Wrap: variants.EditAnswersWhen(variants.EveryRequest, func(a *rewrite.Answer, _ map[string]any) bool {
			r := a.Request
			p, ok := variants.Parse(r.URL.Path)
			if r.Method != http.MethodPut || a.Status != http.StatusNotFound || !ok ||
				(p.Resource != "users" && p.Resource != "clients") || p.Rest != "" || !variants.PlainID.MatchString(p.ID) {
				return false
			}
			variants.SetError(a, http.StatusForbidden, pricing.CodeForbidden.String(), "You may not modify this resource.")
			return true
		}),
	},
	{
		Name:   "unknown-client-403",
		Legal:  true,
		Rule:   "7.2",
		Origin: variants.BlindAudit1("passed"),
		Why:    `README, where the spec is silent (5, 7.2, the order of the checks): a server may check permission before existence, so an unknown id may be answered 403 or 404; written as wrong by the audit, a legal reading of this project (the audit's reason: §7.2: 404 "Resource not found"; PUT /clients/:clientId of a client that does not exist answers 403)`,
		Wrap:   variants.StatusOf("PUT", "/clients/*", http.StatusNotFound, http.StatusForbidden, false),
	},
}
