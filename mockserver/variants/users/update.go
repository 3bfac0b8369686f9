package users

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// PUT /users/:userId: what it answers, what it stores, the client it may create (2.1, 4.1).
var updateServers = []variants.Server{
	{Name: "update-answered-with-the-latest-record", Rule: "4.1", Origin: variants.Invariants,
		Why: `§4.1: PUT /users "Response 200: the user object of section 2.1" it updated; this server answers with the user as it reads it back a moment after its write, so that of two updates at once each may be answered with the later one's record (one after the other, nothing shows it)`,
		Wrap: onPutUser(func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request, id string) {
			a := variants.Record(next, r)
			if a.Status == http.StatusOK {
				hit()
				time.Sleep(3 * time.Millisecond) // a store's latency between its write and its read
				version, _, _ := variants.Below(r.URL.Path)
				if b := variants.Send(next, r, "GET", version+"/users/"+id, nil); b.Status == http.StatusOK {
					a.Body = b.Body
				}
			}
			variants.Write(w, a)
		}),
	},
	{Name: "user-without-passwordLastChanged", Rule: "2.1", Why: "the user object has no passwordLastChanged", Origin: variants.BuiltIn,
		Answer: variants.DropField("passwordLastChanged"),
	},
	{Name: "user-update-not-stored", Rule: "4.1", Why: "PUT /users/:userId answers the new values but does not store them", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.UpdateNotStored = true },
	},
	{Name: "user-profile-not-stored", Rule: "4.1", Why: "PUT /users/:userId answers the new names, subscribe flags and timezone but does not store them", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.UserProfileNotStored = true },
	},
	{Name: "user-created-changes-on-update", Rule: "2.1", Why: "PUT /users/:userId answers created as the time of the update", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PutUser, func(o map[string]any) { o["created"] = variants.Now() }),
	},
	{Name: "refused-user-update-stores-names", Rule: "4.1", Why: "a PUT /users/:userId answered 400 for one field still stores the valid first and last names it carried", Origin: variants.Gate3,
		Wrap: variants.StoreRefused("/users/*", variants.UserBody, func(b map[string]any) (map[string]any, bool) {
			first, ok1 := variants.ValidText(b, "firstName")
			last, ok2 := variants.ValidText(b, "lastName")
			return map[string]any{"firstName": first, "lastName": last}, ok1 && ok2
		})},
	{Name: "put-users-client-dropped", Rule: "4.1", Why: "PUT /users/:userId ignores client: answered 200, and no client is created", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool { return variants.Drop(b, "client") }),
	},
	{Name: "put-users-creates-client", Rule: "4.1", Why: "PUT /users/:userId without a client creates one, as POST /users does", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			if _, ok := b["client"]; ok {
				return false
			}
			b["client"] = map[string]any{"name": "Default client", "addressLine1": "1 Default Street", "addressCity": "London",
				"addressPostcode": "EC1A 1BB", "addressCountry": "United Kingdom", "currency": map[string]any{"id": json.Number("1")}, "terms": "I agree"}
			return true
		}),
	},
	{
		Name:   "user-id-as-string",
		Rule:   "2.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.1: the user's id is a Number; PUT /users answers it as a string ("1")`,
		Wrap: variants.EditUserAnswers(func(o map[string]any) bool {
			id, ok := o["id"]
			if !ok {
				return false
			}
			if _, isStr := id.(string); isStr {
				return false
			}
			o["id"] = variants.JSONString(id)
			return true
		}),
	},
	{
		Name:   "user-answer-wrapped",
		Rule:   "4.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1: "Response 200: the user object of section 2.1"; PUT /users answers {"user": {...}} instead`,
		Wrap: variants.EditAnswersWhen(variants.PutUser, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != http.StatusOK {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) { return map[string]any{"user": v}, true })
		}),
	},
	{
		Name:   "terms-unchecked-in-user-client",
		Rule:   "4.1",
		Origin: variants.BlindAudit1("missed"),
		Why:    "§4.1: the client of PUT /users is created \"with the body of POST /clients\", whose terms \"must equal the literal `I agree`\"; the nested client's terms are not checked",
		Wrap: variants.RewriteWhen(variants.PutUser, func(_ *http.Request, body map[string]any) bool {
			return variants.Set(variants.Sub(body, "client"), "terms", "I agree")
		}),
	},
	{
		Name:   "user-client-errors-ignored",
		Rule:   "4.1, 7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1/§7.3: the client of PUT /users takes "the body of POST /clients", which answers 400 InvalidName without a name; PUT /users drops an invalid client and answers 200`,
		Wrap: onPutUser(func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request, id string) {
			body := variants.PeekJSON(r)
			if variants.Sub(body, "client") == nil {
				next.ServeHTTP(w, r)
				return
			}
			held := rewrite.Answers(next, func(a *rewrite.Answer) {
				if a.Status != http.StatusBadRequest || !variants.OnlyErrorsUnder(a, "client.") {
					return
				}
				delete(body, "client")
				st, u := variants.Call(next, r, "PUT", "/users/"+id, body)
				if st != http.StatusOK {
					return
				}
				hit()
				a.Status = st
				a.Body = variants.Encode(u)
			})
			held.ServeHTTP(w, r)
		}),
	},
	{
		Name:   "user-client-not-created",
		Rule:   "4.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1: client: "If provided, a client account is created too"; PUT /users ignores it and creates no client`,
		Wrap: variants.RewriteWhen(variants.PutUser, func(_ *http.Request, body map[string]any) bool {
			return variants.Sub(body, "client") != nil && variants.Drop(body, "client")
		}),
	},
	{
		Name:   "legal-extra-user-field",
		Legal:  true,
		Rule:   "2.1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§2.1 lists the fields PUT /users returns and forbids only the password; an extra property ("locale") is not excluded`,
		Wrap: variants.EditUserAnswers(func(o map[string]any) bool {
			o["locale"] = "en-GB"
			return true
		}),
	},
}

// onPutUser is a server that answers PUT /users/:userId with serve, given
// the user's id, and leaves every other request to next.
func onPutUser(serve func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request, id string)) func(http.Handler, func()) http.Handler {
	return variants.Intercept(variants.PutUser, func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request) {
		ids, _ := variants.At(r, http.MethodPut, "/users/*")
		serve(next, hit, w, r, ids[0])
	})
}
