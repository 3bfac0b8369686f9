package variants

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// The helpers that change one field of a body or of an answer, and the
// servers made of one such change.

// Drop removes key from a body and reports whether it was there.
func Drop(b map[string]any, key string) bool {
	_, ok := b[key]
	delete(b, key)
	return ok
}

// Replace rewrites the string at key with fn and reports whether that
// changed it; a key that holds no string (or a nil o) is left as it is.
func Replace(o map[string]any, key string, fn func(string) string) bool {
	s, ok := Str(o, key)
	if !ok {
		return false
	}
	t := fn(s)
	if t == s {
		return false
	}
	o[key] = t
	return true
}

// Set sets key of o to v and reports whether that changed it; a nil o is
// left as it is.
func Set(o map[string]any, key string, v any) bool {
	if o == nil || o[key] == v {
		return false
	}
	o[key] = v
	return true
}

// RefuseIf replaces the string at key by a value the mock refuses when
// refused says so: how a server that refuses such a string answers.
func RefuseIf(b map[string]any, key, refusal string, refused func(string) bool) bool {
	if s, ok := b[key].(string); ok && refused(s) {
		b[key] = refusal
		return true
	}
	return false
}

// LimitOf is the limit of a string field of the bodies, by its name in the
// body: the field tables' Max (pricing.UserBody, ClientBody, AppBody). A
// name has one limit in every body that has it (TestLimitOfIsEveryBodys).
func LimitOf(key string) int {
	for _, t := range pricing.Bodies() {
		if f, ok := t.Lookup(key); ok && f.Max > 0 {
			return f.Max
		}
	}
	panic("no body has a string field " + key + " with a limit")
}

// OverBytes refuses a string of more bytes than key's limit in characters,
// as a limit counted in bytes does, by a string one character past it.
func OverBytes(key string) func(b map[string]any) bool {
	limit := LimitOf(key)
	return func(b map[string]any) bool {
		return RefuseIf(b, key, strings.Repeat("x", limit+1), func(s string) bool { return len(s) > limit })
	}
}

// SetID sets obj.id to id where the body has an id there.
func SetID(b map[string]any, obj, id string) bool {
	o, ok := b[obj].(map[string]any)
	if !ok || o["id"] == nil || o["id"] == json.Number(id) {
		return false
	}
	o["id"] = json.Number(id)
	return true
}

// TruncateAt cuts the string at key to its limit (LimitOf).
func TruncateAt(key string) func(b map[string]any) bool {
	limit := LimitOf(key)
	return func(b map[string]any) bool {
		s, ok := b[key].(string)
		if !ok || Runes(s) <= limit {
			return false
		}
		b[key] = Truncate(s, limit)
		return true
	}
}

// TruncateField cuts a string field of a route's bodies to its limit
// before next reads it.
func TruncateField(method, pattern, field string) func(http.Handler, func()) http.Handler {
	return RewriteWhen(On(method, pattern), func(_ *http.Request, body map[string]any) bool { return TruncateAt(field)(body) })
}

// RefuseLength refuses with 400 code a route's body whose string field's
// length in characters bad reports.
func RefuseLength(method, pattern, field, code string, bad func(int) bool) func(http.Handler, func()) http.Handler {
	return RefuseWhen(On(method, pattern), field, code, field+" is too long.", func(_ *http.Request, body map[string]any) bool {
		s, ok := Str(body, field)
		return ok && bad(Runes(s))
	})
}

// Lengthen refuses a string field of exactly n characters as the mock
// refuses one over its limit, together with every other offending field of
// the body (7.3: several invalid fields are answered together): it hands
// the mock the field one character longer.
func Lengthen(method, pattern, field string, n int) func(http.Handler, func()) http.Handler {
	return RewriteWhen(On(method, pattern), func(_ *http.Request, body map[string]any) bool {
		s, ok := Str(body, field)
		if !ok || Runes(s) != n {
			return false
		}
		body[field] = "e" + s
		return true
	})
}

// EditAnswersTo edits the JSON object of the 200 answers to the requests
// of route; fn reports a change, and hit is called for each.
func EditAnswersTo(route func(*http.Request) bool, fn func(o map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Answers(next, hit, route, func(a *rewrite.Answer, _ map[string]any) bool {
			return a.Status == http.StatusOK && EditObject(a, fn)
		})
	}
}

// EditUserAnswers edits the 200 answers of PUT /users.
func EditUserAnswers(fn func(o map[string]any) bool) func(http.Handler, func()) http.Handler {
	return EditAnswersTo(PutUser, fn)
}

// EditAppAnswers edits every app of the 200 answers of the app routes and
// of the apps of a client.
func EditAppAnswers(fn func(o map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Answers(next, hit, func(r *http.Request) bool {
			_, rest, ok := Below(r.URL.Path)
			return ok && (strings.HasPrefix(rest, "/apps") || strings.HasSuffix(rest, "/apps"))
		}, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != http.StatusOK {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) {
				return v, Each(v, func(key string, o map[string]any) bool {
					if key != "" && key != "apps" {
						return false
					}
					return fn(o)
				})
			})
		})
	}
}

// EditPlatforms edits the answer of GET /platforms.
func EditPlatforms(fn func(o map[string]any) (any, bool)) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Answers(next, hit, On(http.MethodGet, "/platforms"), func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != http.StatusOK {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) {
				o, ok := v.(map[string]any)
				if !ok {
					return v, false
				}
				return fn(o)
			})
		})
	}
}

// RFC3339Z is a date of the form the mock writes: seconds, UTC, Z.
var RFC3339Z = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// EditDates rewrites every date of the mock's form in the JSON answers
// with fn.
func EditDates(fn func(string) string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Answers(next, hit, EveryRequest, func(a *rewrite.Answer, _ map[string]any) bool {
			return a.EditJSON(func(v any) (any, bool) {
				return v, Each(v, func(_ string, o map[string]any) bool {
					changed := false
					for _, k := range Dates {
						if d, ok := Str(o, k); ok && RFC3339Z.MatchString(d) {
							o[k] = fn(d)
							changed = true
						}
					}
					return changed
				})
			})
		})
	}
}
