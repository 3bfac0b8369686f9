package representation

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// JSON bodies, ids, collections and statuses (1, 2, 2.5, 4).
var jsonServers = []variants.Server{
	{Name: "ids-as-strings", Rule: "2", Why: `ids are strings ("1") instead of numbers`, Origin: variants.BuiltIn,
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			for k, v := range o {
				if n, ok := v.(json.Number); ok && (k == "id" || strings.HasSuffix(k, "Id")) {
					o[k] = string(n)
				}
			}
		}),
	},
	{Name: "content-type-text", Rule: "1", Why: "answers are labelled text/plain instead of application/json", Origin: variants.BuiltIn,
		Answer: func(a *rewrite.Answer) { a.Header.Set("Content-Type", "text/plain; charset=utf-8") },
	},
	{Name: "collection-bare-array", Rule: "2.5", Why: "a collection is answered as a bare array, not a wrapper object", Origin: variants.BuiltIn,
		Answer: func(a *rewrite.Answer) {
			if a.Request.Method != http.MethodGet || a.Status != http.StatusOK {
				return
			}
			a.EditJSON(func(v any) (any, bool) {
				return (func(v any) any {
					if o, ok := v.(map[string]any); ok && len(o) == 1 {
						for _, items := range o {
							if arr, ok := items.([]any); ok {
								return arr
							}
						}
					}
					return v
				})(v), true
			})
		},
	},
	{Name: "json-quotes-unescaped", Rule: "1", Why: `a " inside a string is written unescaped, so the answer is not JSON`, Origin: variants.FaultClasses,
		Answer: func(a *rewrite.Answer) { a.Body = bytes.ReplaceAll(a.Body, []byte(`\"`), []byte(`"`)) },
	},
	{Name: "post-answers-201", Rule: "4", Why: "a successful POST is answered 201 Created instead of 200", Origin: variants.BuiltIn,
		Answer: func(a *rewrite.Answer) {
			if a.Request.Method == http.MethodPost && a.Status == http.StatusOK {
				a.Status = http.StatusCreated
			}
		},
	},
	{
		Name:   "extra-fields",
		Legal:  true,
		Rule:   "2.5",
		Origin: variants.BuiltIn,
		Why:    "§2.5: a wrapper may add properties such as a page number or the size of the result set; no section closes an object",
		Wrap: variants.EditJSONAnswers(func(_ *http.Request, status int, v any) (any, bool) {
			if top, ok := v.(map[string]any); ok {
				for _, m := range top {
					if items, ok := m.([]any); ok {
						top["page"], top["total"] = 1, len(items)
						break
					}
				}
			}
			return v, variants.Each(v, func(_ string, o map[string]any) bool {
				o["x-extra"] = 1
				return true
			})
		}),
	},
	{
		Name:   "content-type-plain-json",
		Legal:  true,
		Rule:   "1",
		Origin: variants.BuiltIn,
		Why:    "§1: bodies are JSON; a charset parameter is not required (RFC 8259 JSON is UTF-8)",
		Wrap: variants.EditAnswersWhen(variants.EveryRequest, func(a *rewrite.Answer, _ map[string]any) bool {
			if mt, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type")); mt != "application/json" || a.Header.Get("Content-Type") == mt {
				return false
			}
			a.Header.Set("Content-Type", "application/json")
			return true
		}),
	},
	largeIDs("ids-large", 1000000, variants.BuiltIn,
		"§2: ids are Numbers; their values are the server's (here the ids of users, clients, apps and sessions start at 1000001)"),
	largeIDs("ids-64-bit", 1<<62, variants.Lineages1Team,
		"§2: ids are Numbers, of any size: here the ids of users, clients, apps and sessions start at 2^62+1 (4611686018427387905), "+
			"as a server with 64-bit ids answers them, where a float64 holds only every 1024th integer: an id read as a float is "+
			"its neighbours' too"),
	{
		Name:   "legal-alphabetical-properties",
		Legal:  true,
		Rule:   "1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§1: "Request and response bodies are JSON": the order of an object's properties carries no meaning and the spec's tables fix none; every object answers its properties in alphabetical order`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			return a.EditJSON(func(v any) (any, bool) { return v, true })
		}),
	},
	{
		Name:   "legal-pretty-json",
		Legal:  true,
		Rule:   "1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§1: "Request and response bodies are JSON"; white space between JSON tokens is not specified, so answers are indented`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			var out bytes.Buffer
			if len(a.Body) == 0 || json.Indent(&out, a.Body, "", "  ") != nil {
				return false
			}
			a.Body = out.Bytes()
			return true
		}),
	},
	{
		Name:   "legal-plain-json-content-type",
		Legal:  true,
		Rule:   "1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§1: "Request and response bodies are JSON"; answers are typed application/json without the optional charset parameter (UTF-8 is JSON's default)`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			if !strings.HasPrefix(a.Header.Get("Content-Type"), "application/json;") {
				return false
			}
			a.Header.Set("Content-Type", "application/json")
			return true
		}),
	},
}

// largeIDs is a server whose ids are the mock's plus offset: the ids it
// answers are the ids it takes, and an id at or under the offset names
// nothing.
func largeIDs(name string, offset int64, origin variants.Origin, why string) variants.Server {
	return variants.Server{
		Name:   name,
		Legal:  true,
		Rule:   "2",
		Origin: origin,
		Why:    why,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if p, ok := variants.Parse(r.URL.Path); ok && p.ID != "" && variants.PlainID.MatchString(p.ID) &&
					(p.Resource == "users" || p.Resource == "clients" || p.Resource == "apps") {
					// An id at or under the offset names nothing here: send the
					// mock an id it cannot have, still well formed.
					id := strconv.FormatInt(1<<63-1, 10)
					if n, err := strconv.ParseInt(p.ID, 10, 64); err == nil && n > offset {
						id = strconv.FormatInt(n-offset, 10)
					}
					r = r.Clone(r.Context())
					r.URL.Path = p.Version + "/" + p.Resource + "/" + id + p.Rest
					r.URL.RawPath = ""
					r.RequestURI = r.URL.RequestURI()
					hit()
				}
				variants.EditJSON(next, hit, func(r *http.Request, status int, v any) (any, bool) {
					return offsetIDs(r, offset, v)
				}).ServeHTTP(w, r)
			})
		},
	}
}

// offsetIDs adds offset to the ids the server assigns: the top-level id of
// a user, client, app or session, the ids of the items of a users, clients or
// apps collection, and every userId, clientId and creatorUserId. Catalogue
// ids (currency, plan, platform, phone country) are left alone.
func offsetIDs(r *http.Request, offset int64, v any) (any, bool) {
	p, ok := variants.Parse(r.URL.Path)
	if !ok {
		return v, false
	}
	changed := false
	add := func(o map[string]any, k string) {
		if n, ok := o[k].(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				o[k], changed = json.Number(strconv.FormatInt(i+offset, 10)), true
			}
		}
	}
	if top, ok := v.(map[string]any); ok && p.Rest == "" && slices.Contains([]string{"users", "clients", "apps", "sessions"}, p.Resource) {
		add(top, "id")
	}
	rewrite.EachObject(v, func(key string, o map[string]any) {
		if key == "users" || key == "clients" || key == "apps" {
			add(o, "id")
		}
		add(o, "userId")
		add(o, "clientId")
		add(o, "creatorUserId")
	})
	return v, changed
}
