package steps

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/match"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// The error-array assertions of spec 7.1 and 7.3.

// errorArrayShape is spec 7.1 itself, kept in code rather than in a
// fixture so that the errors steps cannot drift with an edited file.
const errorArrayShape = `{"#each": {"fieldName": "#string", "error": "#string", "message": "#string"}, "#minItems": 1}`

type fieldError struct{ field, code string }

func (e fieldError) String() string { return e.field + " " + e.code }

// responseErrors is the state with a response and the elements of its
// error array (errorArray).
func responseErrors(ctx context.Context) (*scenarioState, []fieldError, error) {
	st, err := response(ctx)
	if err != nil {
		return nil, nil, err
	}
	got, err := st.errorArray()
	return st, got, err
}

// errorArray checks the status and the 7.1 shape and returns the elements.
func (st *scenarioState) errorArray() ([]fieldError, error) {
	if st.last.status != http.StatusBadRequest {
		return nil, st.fail("expected status 400 with the error array of spec 7.1, got %d", st.last.status)
	}
	if !gjson.ValidBytes(st.last.respBody) {
		return nil, st.fail("the 400 body is not JSON")
	}
	body := gjson.ParseBytes(st.last.respBody)
	mm, err := match.Shape(errorArrayShape, body)
	if err != nil {
		return nil, err
	}
	if len(mm) > 0 {
		lines := make([]string, len(mm))
		for i, m := range mm {
			lines[i] = "  " + m.String()
		}
		return nil, st.fail("the 400 body is not the error array of spec 7.1 (an array of objects with string fieldName, error and message):\n%s", strings.Join(lines, "\n"))
	}
	var got []fieldError
	var unreadable []string
	for i, e := range body.Array() {
		got = append(got, fieldError{e.Get("fieldName").Str, e.Get("error").Str})
		if m := e.Get("message").Str; !humanReadable(m) {
			unreadable = append(unreadable, fmt.Sprintf("  [%d].message: expected human-readable text, got %q", i, m))
		}
	}
	if len(unreadable) > 0 {
		return nil, st.fail("the 400 body is not the error array of spec 7.1: message is \"Human-readable text\":\n%s", strings.Join(unreadable, "\n"))
	}
	return got, nil
}

// humanReadable: text with at least one letter, in any script. Spec 7.1
// calls message "Human-readable text"; an empty string, blanks or
// punctuation alone are none.
func humanReadable(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// errorTable reads a | fieldName | error | table, columns in any order.
func (st *scenarioState) errorTable(ctx context.Context, t *godog.Table) ([]fieldError, error) {
	if t == nil || len(t.Rows) < 1 {
		return nil, fmt.Errorf("expected a table with the header | fieldName | error |")
	}
	fieldCol, codeCol := -1, -1
	for i, c := range t.Rows[0].Cells {
		switch strings.TrimSpace(c.Value) {
		case "fieldName":
			fieldCol = i
		case "error":
			codeCol = i
		}
	}
	if fieldCol < 0 || codeCol < 0 {
		return nil, fmt.Errorf("the table header must name the columns fieldName and error")
	}
	var want []fieldError
	for _, row := range t.Rows[1:] {
		f, err := st.substText(ctx, row.Cells[fieldCol].Value)
		if err != nil {
			return nil, err
		}
		c, err := st.substText(ctx, row.Cells[codeCol].Value)
		if err != nil {
			return nil, err
		}
		want = append(want, fieldError{f, c})
	}
	return want, nil
}

// diffErrors returns what want has that got lacks and the reverse, as
// multisets.
func diffErrors(want, got []fieldError) (missing, extra []fieldError) {
	left := map[fieldError]int{}
	for _, g := range got {
		left[g]++
	}
	for _, w := range want {
		if left[w] > 0 {
			left[w]--
		} else {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if left[g] > 0 {
			left[g]--
			extra = append(extra, g)
		}
	}
	return missing, extra
}

func listErrors(es []fieldError) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = "  | " + e.field + " | " + e.code + " |"
	}
	sort.Strings(s)
	return strings.Join(s, "\n")
}

func (a assertSteps) theErrorsAreExactly(ctx context.Context, t *godog.Table) error {
	return a.compareErrors(ctx, t, true)
}

func (a assertSteps) theErrorsInclude(ctx context.Context, t *godog.Table) error {
	return a.compareErrors(ctx, t, false)
}

func (assertSteps) compareErrors(ctx context.Context, t *godog.Table, exact bool) error {
	st, err := response(ctx)
	if err != nil {
		return err
	}
	want, err := st.errorTable(ctx, t)
	if err != nil {
		return err
	}
	got, err := st.errorArray()
	if err != nil {
		return err
	}
	missing, extra := diffErrors(want, got)
	if !exact {
		extra = nil
	}
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("the errors differ from the table")
	if len(missing) > 0 {
		b.WriteString("\nmissing:\n" + listErrors(missing))
	}
	if len(extra) > 0 {
		b.WriteString("\nunexpected:\n" + listErrors(extra))
	}
	return st.fail("%s", b.String())
}

func (assertSteps) theErrorsNameTheField(ctx context.Context, field string) error {
	st, field, err := stateArg(ctx, response, field)
	if err != nil {
		return err
	}
	got, err := st.errorArray()
	if err != nil {
		return err
	}
	for _, g := range got {
		// A nested field named flat, as its code is (phoneCountryId), is
		// the same field (target.FieldPath).
		if g.field == field || target.FieldPath(g.field) == field {
			return nil
		}
	}
	return st.fail("no error names the field %q; the errors are:\n%s", field, listErrors(got))
}

// theErrorsNameOneOfTheFields checks a 400 whose offending field is one of
// a few, as the target reads the body (a null hash beside no name: the hash
// refused, or the name missing): some element names one of them.
func (a assertSteps) theErrorsNameOneOfTheFields(ctx context.Context, list string) error {
	list = match.UnescapeArg(list)
	st, got, err := responseErrors(ctx)
	if err != nil {
		return err
	}
	var fields []string
	for _, f := range strings.Split(list, ",") {
		fields = append(fields, strings.TrimSpace(f))
	}
	for _, g := range got {
		if slices.Contains(fields, target.FieldPath(g.field)) {
			return nil
		}
	}
	return st.fail("no error names one of the fields %q; the errors are:\n%s", fields, listErrors(got))
}

// theErrorsIncludeTheCodeFor checks a code of 7.3 on a field whose name the
// spec does not spell in a body (phoneCountry.id): an element with that
// code whose fieldName names the field, as itself, as the object holding it
// (phoneCountry) or as a field inside it.
func (assertSteps) theErrorsIncludeTheCodeFor(ctx context.Context, code, field string) error {
	code, field = match.UnescapeArg(code), match.UnescapeArg(field)
	st, got, err := responseErrors(ctx)
	if err != nil {
		return err
	}
	for _, g := range got {
		// The spec does not show how a nested field is named: dotted
		// (phoneCountry.id), bracketed (phoneCountry[id]) or flat as its
		// code (phoneCountryId) alike.
		name := target.FieldPath(g.field)
		if g.code == code && (name == field || strings.HasPrefix(field, name+".") || strings.HasPrefix(name, field+".")) {
			return nil
		}
	}
	return st.fail("no error has the code %q for the field %q; the errors are:\n%s", code, field, listErrors(got))
}

// theErrorsNameOnlyTheFields checks spec 7.1's "Name of the offending body
// field" from the other side: for a body whose offending fields are exactly
// these, each of them is named and no element names anything else (no
// element for a field that was valid, none without a field). A scenario
// uses it only where every other field of the body is valid on every
// target, and only for top-level fields: how a nested field is named is the
// target's choice.
func (assertSteps) theErrorsNameOnlyTheFields(ctx context.Context, list string) error {
	st, err := response(ctx)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, m := range quotedItem.FindAllStringSubmatch(list, -1) {
		f, err := st.substText(ctx, match.UnescapeArg(m[1]))
		if err != nil {
			return err
		}
		want[f] = false
	}
	got, err := st.errorArray()
	if err != nil {
		return err
	}
	var extra []fieldError
	for _, g := range got {
		if _, ok := want[g.field]; ok {
			want[g.field] = true
		} else {
			extra = append(extra, g)
		}
	}
	var missing []string
	for f, named := range want {
		if !named {
			missing = append(missing, fmt.Sprintf("%q", f))
		}
	}
	sort.Strings(missing)
	var b strings.Builder
	if len(missing) > 0 {
		b.WriteString("no error names the field " + strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString("errors name fields that were valid (spec 7.1: fieldName is the name of the offending body field):\n" + listErrors(extra))
	}
	if b.Len() == 0 {
		return nil
	}
	return st.fail("%s\nthe errors are:\n%s", b.String(), listErrors(got))
}

// quotedList is one or more quoted arguments: "a", "b" and "c".
const quotedList = `"(?:[^"\\]|\\.)*"(?:(?:, | and )"(?:[^"\\]|\\.)*")*`

var quotedItem = regexp.MustCompile(match.Quoted)

// theErrorMessagesDoNotCarryTheNumber checks that no message of an error
// answer names a number that is another account's data (its user id, 5:
// a caller may not view another's resources). Ids may be small numbers, so
// only whole numbers count, and only inside the messages: 2 is not in 12
// nor in 2.5, and a fieldName or a code is no message.
func (assertSteps) theErrorMessagesDoNotCarryTheNumber(ctx context.Context, n string) error {
	st, n, err := stateArg(ctx, response, n)
	if err != nil {
		return err
	}
	where, err := messageCarriesNumber(st.last.respBody, n)
	if err != nil {
		return err
	}
	if where != "" {
		return st.fail("the error message at %s carries the number %s", where, n)
	}
	return nil
}

// wholeNumber is a run of digits; messageCarriesNumber leaves out the
// parts of a decimal (2.5).
var wholeNumber = regexp.MustCompile(`[0-9]+`)

// messageCarriesNumber says where a message of the body holds n as a whole
// number (a run of digits equal to it, leading zeros aside, not part of a
// decimal), or "": the string members named message, at any depth (the
// elements of 7.1's error array, or the object another status answers); a
// body that is not JSON, or is one JSON string, is one message.
func messageCarriesNumber(body []byte, n string) (string, error) {
	want := strings.TrimLeft(n, "0")
	if n == "" || strings.Trim(n, "0123456789") != "" {
		return "", fmt.Errorf("%q is not a whole number", n)
	}
	carries := func(s string) bool {
		for _, loc := range wholeNumber.FindAllStringIndex(s, -1) {
			if loc[0] > 0 && s[loc[0]-1] == '.' && loc[0] > 1 && isDigit(s[loc[0]-2]) {
				continue // the fraction of a decimal
			}
			if loc[1] < len(s)-1 && s[loc[1]] == '.' && isDigit(s[loc[1]+1]) {
				continue // the integer part of a decimal
			}
			if strings.TrimLeft(s[loc[0]:loc[1]], "0") == want {
				return true
			}
		}
		return false
	}
	if !gjson.ValidBytes(body) {
		if carries(string(body)) {
			return "(the body, not JSON)", nil
		}
		return "", nil
	}
	root := gjson.ParseBytes(body)
	if root.Type == gjson.String {
		if carries(root.Str) {
			return "(the body, a JSON string)", nil
		}
		return "", nil
	}
	var where string
	var walk func(path string, v gjson.Result)
	walk = func(path string, v gjson.Result) {
		v.ForEach(func(k, e gjson.Result) bool {
			p := k.String()
			if path != "" {
				p = path + "." + p
			}
			switch {
			case k.Type == gjson.String && k.Str == "message" && e.Type == gjson.String:
				if carries(e.Str) {
					where = p
				}
			case e.IsObject() || e.IsArray():
				walk(p, e)
			}
			return where == ""
		})
	}
	walk("", root)
	return where, nil
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
