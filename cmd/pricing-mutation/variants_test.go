package main

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/steps"
)

// TestMutation proves that the spec scenarios fail against implementations
// the spec forbids. This is the other half: they pass against
// implementations that made a different legal choice wherever the spec is
// silent. Each variant is a middleware in front of the mock that rewrites
// its requests or answers into another correct implementation; a spec
// scenario that fails against one asserts more than the spec states.
func TestSuitePassesLegalVariants(t *testing.T) {
	for _, v := range legalVariants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			var rewrites atomic.Int64
			wrap := func(next http.Handler) http.Handler { return v.wrap(next, func() { rewrites.Add(1) }) }
			o := runSpec(defects.Defect{}, wrap, v.tune)
			switch {
			case o.err != nil:
				t.Fatalf("could not run: %v", o.err)
			case o.ran == 0:
				t.Fatal("no scenario ran")
			case rewrites.Load() == 0:
				t.Fatalf("the variant never acted on a request or an answer, so it proves nothing (%s)", v.legal)
			case o.failedRun():
				var b strings.Builder
				for _, s := range o.failed {
					fmt.Fprintf(&b, "\n--- %s\n%s\n", s, o.reasons[s])
				}
				t.Fatalf("%d of %d spec scenarios failed (godog status %d) against a legal variant: %s%s",
					len(o.failed), o.ran, o.status, v.legal, b.String())
			}
			t.Logf("%d spec scenarios passed; the variant acted %d times", o.ran, rewrites.Load())
		})
	}
}

// legalVariant is a correct implementation that differs from the mock where
// the spec allows it. wrap puts it in front of the mock and calls hit for
// every request or answer it acts on (rewrites, refuses or, for a check,
// vets), so that a variant the suite never reaches cannot pass; tune, when set, is what the target's
// profile says about it.
type legalVariant struct {
	name  string
	legal string // why the spec allows it
	wrap  func(next http.Handler, hit func()) http.Handler
	tune  func(*steps.Profile)
}

var legalVariants = []legalVariant{
	{
		name:  "extra-fields",
		legal: "§2.5: a wrapper may add properties such as a page number or the size of the result set; no section closes an object",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, status int, v any) (any, bool) {
				if top, ok := v.(map[string]any); ok {
					for _, m := range top {
						if items, ok := m.([]any); ok {
							top["page"], top["total"] = 1, len(items)
							break
						}
					}
				}
				changed := false
				eachObject(v, "", func(_ string, o map[string]any) {
					o["x-extra"] = 1
					changed = true
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "errors-reordered",
		legal: "§7.1, §7.3: a 400 is an array of {fieldName, error, message}; the order, the message texts and further members are not specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, status int, v any) (any, bool) {
				errs, ok := v.([]any)
				if status != http.StatusBadRequest || !ok {
					return v, false
				}
				slices.Reverse(errs)
				for i, e := range errs {
					if o, ok := e.(map[string]any); ok {
						o["message"] = fmt.Sprintf("Problem %d of %d with this request.", i+1, len(errs))
						o["x-detail"] = map[string]any{"index": i}
					}
				}
				return errs, true
			}, hit)
		},
	},
	{
		name:  "dates-other-iso8601",
		legal: "§1, §2: dates are ISO 8601 strings; neither the zone, the offset form nor fractions of a second are specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			zone := time.FixedZone("", 5*3600+30*60)
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(_ string, o map[string]any) {
					for k, x := range o {
						s, ok := x.(string)
						if !ok || !rfc3339Z.MatchString(s) {
							continue
						}
						if t, err := time.Parse(time.RFC3339, s); err == nil {
							o[k] = t.In(zone).Format("2006-01-02T15:04:05.000-07:00")
							changed = true
						}
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "hex-uppercase",
		legal: "§2.3, §8: writeKey and the marketapp hash are hexadecimal; the letter case is not specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(key string, o map[string]any) {
					if s, ok := o["writeKey"].(string); ok {
						o["writeKey"], changed = strings.ToUpper(s), true
					}
					if s, ok := o["hash"].(string); ok && key == "marketapp" {
						o["hash"], changed = strings.ToUpper(s), true
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "currency-lowercase",
		legal: "§2.2: currency.code is a three-letter alphabetic code, a string of letters; the case is not specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(key string, o map[string]any) {
					if s, ok := o["code"].(string); ok && (key == "currency" || key == "currencies") {
						o["code"], changed = strings.ToLower(s), true
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "permission-first",
		legal: "§5, §7.2: 403 and 404 are both named and their order is not; an implementation may refuse a caller before it looks the id up",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editAnswer(next, func(r *http.Request, a *answer) bool {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method != http.MethodPut || a.status != http.StatusNotFound || m == nil ||
					(m[2] != "users" && m[2] != "clients") || m[4] != "" || !plainID.MatchString(m[3]) {
					return false
				}
				a.setErrors(http.StatusForbidden, "Forbidden", "You may not modify this resource.")
				return true
			}, hit)
		},
	},
	{
		name:  "form-login-only",
		legal: "§5: the body of POST /sessions is not shown; this target takes only a form, and its profile says so (PRICING_LOGIN_ENCODING=form)",
		tune:  func(p *steps.Profile) { p.LoginEncoding = "form" },
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method == http.MethodPost && m != nil && m[2] == "sessions" && m[3] == "" {
					hit() // every login passes this check, whichever way it goes
					if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
						writeErrors(w, http.StatusBadRequest, "InvalidBody", "Send the credentials as application/x-www-form-urlencoded.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		name:  "content-type-plain-json",
		legal: "§1: bodies are JSON; a charset parameter is not required (RFC 8259 JSON is UTF-8)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editAnswer(next, func(_ *http.Request, a *answer) bool {
				if mt, _, _ := mime.ParseMediaType(a.header.Get("Content-Type")); mt != "application/json" || a.header.Get("Content-Type") == mt {
					return false
				}
				a.header.Set("Content-Type", "application/json")
				return true
			}, hit)
		},
	},
	{
		name: "no-extensions",
		legal: "§4, §4.5: GET of a user, client or app, the catalogues other than platforms and the body of POST /users are not specified; " +
			"an implementation need not have them",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if m := resourcePath.FindStringSubmatch(r.URL.Path); m != nil && isExtension(r.Method, m[2], m[3], m[4]) {
					hit()
					writeErrors(w, http.StatusNotFound, "NotFound", "There is no such endpoint.")
					return
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		name:  "ids-large",
		legal: "§2: ids are Numbers; their values are the server's (here the ids of users, clients, apps and sessions start at 1000001)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if m := resourcePath.FindStringSubmatch(r.URL.Path); m != nil && m[3] != "" && plainID.MatchString(m[3]) &&
					(m[2] == "users" || m[2] == "clients" || m[2] == "apps") {
					// An id at or under the offset names nothing here: send the
					// mock an id it cannot have, still well formed.
					id := strconv.FormatInt(1<<63-1, 10)
					if n, err := strconv.ParseInt(m[3], 10, 64); err == nil && n > idOffset {
						id = strconv.FormatInt(n-idOffset, 10)
					}
					r = r.Clone(r.Context())
					r.URL.Path = m[1] + "/" + m[2] + "/" + id + m[4]
					r.URL.RawPath = ""
					r.RequestURI = r.URL.RequestURI()
					hit()
				}
				editJSON(next, offsetIDs, hit).ServeHTTP(w, r)
			})
		},
	},
}

const idOffset = 1000000

var (
	rfc3339Z = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	plainID  = regexp.MustCompile(`^[1-9][0-9]*$`)
	// resourcePath splits an API path: version, resource, id, the rest.
	resourcePath = regexp.MustCompile(`^(/v1(?:\.0)?)/([A-Za-z]+)(?:/([^/]+))?(/.*)?$`)
)

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

// offsetIDs adds idOffset to the ids the server assigns: the top-level id of
// a user, client, app or session, the ids of the items of a users, clients or
// apps collection, and every userId, clientId and creatorUserId. Catalogue
// ids (currency, plan, platform, phone country) are left alone.
func offsetIDs(r *http.Request, _ int, v any) (any, bool) {
	m := resourcePath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return v, false
	}
	changed := false
	add := func(o map[string]any, k string) {
		if n, ok := o[k].(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				o[k], changed = json.Number(strconv.FormatInt(i+idOffset, 10)), true
			}
		}
	}
	if top, ok := v.(map[string]any); ok && m[4] == "" && slices.Contains([]string{"users", "clients", "apps", "sessions"}, m[2]) {
		add(top, "id")
	}
	eachObject(v, "", func(key string, o map[string]any) {
		if key == "users" || key == "clients" || key == "apps" {
			add(o, "id")
		}
		add(o, "userId")
		add(o, "clientId")
		add(o, "creatorUserId")
	})
	return v, changed
}

// eachObject calls fn for every object in v, depth first, with the key it
// sits under (an array's items sit under the array's key; the top under
// the key given, always "").
func eachObject(v any, _ string, fn func(key string, o map[string]any)) {
	rewrite.EachObject(v, fn)
}

// answer is the mock's answer, held so that a variant may rewrite it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a *answer) setErrors(status int, code, message string) {
	a.status = status
	a.header.Set("Content-Type", "application/json; charset=utf-8")
	a.body, _ = json.Marshal([]map[string]string{{"fieldName": "", "error": code, "message": message}})
}

func writeErrors(w http.ResponseWriter, status int, code, message string) {
	a := answer{header: w.Header()}
	a.setErrors(status, code, message)
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// editAnswer serves r with next and lets edit rewrite the answer; hit is
// called when edit reports a change.
func editAnswer(next http.Handler, edit func(r *http.Request, a *answer) bool, hit func()) http.Handler {
	return rewrite.Answers(next, func(held *rewrite.Answer) {
		a := &answer{status: held.Status, header: held.Header, body: held.Body}
		if edit(held.Request, a) {
			hit()
		}
		held.Status, held.Body = a.status, a.body
	})
}

// editJSON is editAnswer for a JSON answer, decoded with numbers kept as
// written; an answer that is not JSON passes unchanged.
func editJSON(next http.Handler, edit func(r *http.Request, status int, v any) (any, bool), hit func()) http.Handler {
	return rewrite.Answers(next, func(a *rewrite.Answer) {
		mt, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type"))
		if mt == "application/json" && a.EditJSON(func(v any) (any, bool) { return edit(a.Request, a.Status, v) }) {
			hit()
		}
	})
}

// TestIDsLargeVariant checks that ids-large is a consistent implementation
// rather than one the suite happens not to notice: the ids it answers are
// the ids it takes, and the mock's own small ids name nothing.
func TestIDsLargeVariant(t *testing.T) {
	i := slices.IndexFunc(legalVariants, func(v legalVariant) bool { return v.name == "ids-large" })
	m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler { return legalVariants[i].wrap(h, func() {}) }})
	p := m.Profile

	do := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, m.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "api-key "+p.APIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		json.NewDecoder(res.Body).Decode(&v)
		return res.StatusCode, v
	}
	status, sess := do(http.MethodPost, "/sessions", fmt.Sprintf(`{"email":%q,"password":%q}`, p.Email, p.Password))
	userID, _ := sess["userId"].(float64)
	clientID, _ := sess["clientId"].(float64)
	if status != http.StatusOK || userID <= idOffset || clientID <= idOffset || sess["id"].(float64) <= idOffset {
		t.Fatalf("POST /sessions: %d %v; want ids over %d", status, sess, idOffset)
	}
	if status, u := do(http.MethodGet, fmt.Sprintf("/users/%.0f", userID), ""); status != http.StatusOK || u["id"] != userID {
		t.Errorf("GET /users/%.0f: %d %v", userID, status, u)
	}
	if status, c := do(http.MethodGet, fmt.Sprintf("/clients/%.0f", clientID), ""); status != http.StatusOK || c["id"] != clientID {
		t.Errorf("GET /clients/%.0f: %d %v", clientID, status, c)
	}
	if status, _ := do(http.MethodGet, fmt.Sprintf("/users/%.0f", userID-idOffset), ""); status != http.StatusNotFound {
		t.Errorf("GET /users/%.0f (the mock's own id): %d, want 404", userID-idOffset, status)
	}
}
