package variants

import (
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// The helpers that change an answer the mock wrote: its status, its JSON,
// its error array, its dates.

// Answers hands the answers of the requests match accepts to edit, with the
// request's decoded body (nil when not a JSON object); edit reports whether
// it changed the answer, and hit is called when it did.
func Answers(next http.Handler, hit func(), match func(r *http.Request) bool, edit func(a *rewrite.Answer, body map[string]any) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !match(r) {
			next.ServeHTTP(w, r)
			return
		}
		body := PeekJSON(r)
		rewrite.Answers(next, func(a *rewrite.Answer) {
			if edit(a, body) {
				hit()
			}
		}).ServeHTTP(w, r)
	})
}

// EditAnswersWhen is a server that edits the answers to the requests match
// accepts, as Answers does.
func EditAnswersWhen(match func(r *http.Request) bool, edit func(a *rewrite.Answer, body map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Answers(next, hit, match, edit)
	}
}

// EveryRequest matches every request.
func EveryRequest(*http.Request) bool { return true }

// EditJSON hands every JSON answer (Content-Type application/json) to edit,
// decoded with numbers kept as written, with its request and status; hit
// is called when edit reports a change.
func EditJSON(next http.Handler, hit func(), edit func(r *http.Request, status int, v any) (any, bool)) http.Handler {
	return Answers(next, hit, EveryRequest, func(a *rewrite.Answer, _ map[string]any) bool {
		mt, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type"))
		return mt == "application/json" && a.EditJSON(func(v any) (any, bool) { return edit(a.Request, a.Status, v) })
	})
}

// EditJSONAnswers is a server that edits every JSON answer, as EditJSON
// does.
func EditJSONAnswers(edit func(r *http.Request, status int, v any) (any, bool)) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return EditJSON(next, hit, edit)
	}
}

// EditErrorArrays is a server that edits the error array of every JSON 400
// (EditJSONAnswers): edit returns the new body and whether it changed.
func EditErrorArrays(edit func(errs []any) (any, bool)) func(http.Handler, func()) http.Handler {
	return EditJSONAnswers(func(_ *http.Request, status int, v any) (any, bool) {
		errs, ok := v.([]any)
		if status != http.StatusBadRequest || !ok {
			return v, false
		}
		return edit(errs)
	})
}

// EditObjects is a server that edits every object of every JSON answer,
// depth first, with the key it sits under (Each); edit reports a change.
func EditObjects(edit func(key string, o map[string]any) bool) func(http.Handler, func()) http.Handler {
	return EditJSONAnswers(func(_ *http.Request, _ int, v any) (any, bool) { return v, Each(v, edit) })
}

// EditObject edits a JSON object answer; fn reports a change.
func EditObject(a *rewrite.Answer, fn func(o map[string]any) bool) bool {
	return a.EditJSON(func(v any) (any, bool) {
		o, ok := v.(map[string]any)
		if !ok {
			return v, false
		}
		return o, fn(o)
	})
}

// EditErrors edits the error array of a 400; fn returns the new body and
// whether it changed.
func EditErrors(a *rewrite.Answer, fn func(errs []any) (any, bool)) bool {
	if a.Status != http.StatusBadRequest {
		return false
	}
	return a.EditJSON(func(v any) (any, bool) {
		errs, ok := v.([]any)
		if !ok {
			return v, false
		}
		return fn(errs)
	})
}

// OnBadRequest is an answer rewrite of the error array of a 400.
func OnBadRequest(edit func([]any) any) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		EditErrors(a, func(errs []any) (any, bool) { return edit(errs), true })
	}
}

// OnErrors is an answer rewrite of every element of the error array of a
// 400.
func OnErrors(edit func(e map[string]any)) func(*rewrite.Answer) {
	return OnBadRequest(func(errs []any) any {
		for _, e := range errs {
			if o, ok := e.(map[string]any); ok {
				edit(o)
			}
		}
		return errs
	})
}

// OnObjects is an answer rewrite that calls edit on every object of a JSON
// answer, with the key it sits under (rewrite.EachObject).
func OnObjects(edit func(key string, o map[string]any)) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		a.EditJSON(func(v any) (any, bool) {
			rewrite.EachObject(v, edit)
			return v, true
		})
	}
}

// OnObjectsWith is an answer rewrite that calls edit on every object of a
// JSON answer that carries member: the users carry passwordLastChanged,
// the sessions token.
func OnObjectsWith(member string, edit func(o map[string]any)) func(*rewrite.Answer) {
	return OnObjects(func(_ string, o map[string]any) {
		if Has(o, member) {
			edit(o)
		}
	})
}

// Each calls fn for every object of a decoded answer, depth first, and
// reports whether fn reported a change.
func Each(v any, fn func(key string, o map[string]any) bool) bool {
	changed := false
	rewrite.EachObject(v, func(key string, o map[string]any) {
		if fn(key, o) {
			changed = true
		}
	})
	return changed
}

// AnswerTo is an answer rewrite of the JSON object of a 200 to the requests
// that match.
func AnswerTo(match func(*http.Request) bool, edit func(o map[string]any)) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if a.Status != http.StatusOK || !match(a.Request) {
			return
		}
		EditObject(a, func(o map[string]any) bool { edit(o); return true })
	}
}

// AnswerNoted is AnswerTo with the value a request rewrite of the same
// server left in the header mark (NotePassword, NoteBody), for an answer
// whose request had one.
func AnswerNoted(mark string, match func(*http.Request) bool, edit func(o map[string]any, noted string)) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if v := a.Request.Header.Get(mark); v != "" {
			AnswerTo(match, func(o map[string]any) { edit(o, v) })(a)
		}
	}
}

// RemapStatus is an answer rewrite from one status to another.
func RemapStatus(from, to int) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if a.Status == from {
			a.Status = to
		}
	}
}

// DropField is an answer rewrite that removes a field from every object.
func DropField(name string) func(*rewrite.Answer) {
	return OnObjects(func(_ string, o map[string]any) { delete(o, name) })
}

// StatusOf turns the status from of a route's answers into to; empty drops
// the body.
func StatusOf(method, pattern string, from, to int, empty bool) func(http.Handler, func()) http.Handler {
	return StatusWhen(On(method, pattern), from, to, empty)
}

// StatusWhen turns the status from of the answers to the requests match
// accepts into to; empty drops the body.
func StatusWhen(match func(*http.Request) bool, from, to int, empty bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Answers(next, hit, match, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != from {
				return false
			}
			a.Status = to
			if empty {
				a.Body = nil
				a.Header.Del("Content-Type")
			}
			return true
		})
	}
}

// ErrorOn reports whether an error answer names field.
func ErrorOn(a *rewrite.Answer, field string) bool {
	found := false
	a.EditJSON(func(v any) (any, bool) {
		Each(v, func(_ string, o map[string]any) bool {
			if o["fieldName"] == field {
				found = true
			}
			return false
		})
		return v, false
	})
	return found
}

// OnlyErrorsUnder reports whether an answer has errors and all of them name
// fields under prefix.
func OnlyErrorsUnder(a *rewrite.Answer, prefix string) bool {
	n, under := 0, 0
	a.EditJSON(func(v any) (any, bool) {
		errs, _ := v.([]any)
		for _, e := range errs {
			n++
			if f, _ := Str(Obj(e), "fieldName"); strings.HasPrefix(f, prefix) {
				under++
			}
		}
		return v, false
	})
	return n > 0 && n == under
}

// Dates are the date fields of the spec's objects.
var Dates = []string{"created", "createdDate", "passwordLastChanged"}

// ShiftDates is an answer rewrite of every date of an answer that parses as
// RFC 3339, moved by move and written back in UTC.
func ShiftDates(move func(time.Time) time.Time) func(*rewrite.Answer) {
	return OnObjects(func(_ string, o map[string]any) {
		for _, k := range Dates {
			if s, ok := o[k].(string); ok {
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					o[k] = move(t).UTC().Format(time.RFC3339)
				}
			}
		}
	})
}

// Now is the time a server that writes dates by itself answers.
func Now() string { return time.Now().UTC().Truncate(time.Second).Format(time.RFC3339) }

// UnsetDate is what a date field that was never set looks like in Go.
const UnsetDate = "0001-01-01T00:00:00Z"

// Obj is a decoded value as an object (nil when it is not one).
func Obj(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

// Str reads a string member.
func Str(o map[string]any, key string) (string, bool) {
	s, ok := o[key].(string)
	return s, ok
}

// Sub reads an object member.
func Sub(o map[string]any, key string) map[string]any {
	m, _ := o[key].(map[string]any)
	return m
}

// Has reports whether an object carries key.
func Has(o map[string]any, key string) bool {
	_, ok := o[key]
	return ok
}

// Runes counts characters.
func Runes(s string) int { return len([]rune(s)) }

// Truncate keeps the first n characters.
func Truncate(s string, n int) string {
	rs := []rune(s)
	if len(rs) > n {
		rs = rs[:n]
	}
	return string(rs)
}

// Number is a JSON number of n.
func Number(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// JSONString is a JSON value written as a string.
func JSONString(v any) string {
	return strings.Trim(strings.TrimSpace(string(Encode(v))), `"`)
}

// BodyPath returns the value at a dotted path of a body; absent and null
// are both "not there".
func BodyPath(body map[string]any, path string) (any, bool) {
	var cur any = body
	for _, seg := range strings.Split(path, ".") {
		o, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = o[seg]; !ok || cur == nil {
			return nil, false
		}
	}
	return cur, true
}

// SetBodyPath sets a dotted path, creating objects on the way.
func SetBodyPath(body map[string]any, path string, v any) {
	o, last := jsonio.Parent(body, path)
	o[last] = v
}
