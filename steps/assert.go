package steps

import (
	"context"
	"fmt"
	"mime"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/match"
)

// assertSteps check the last response. Every failure carries the request
// as curl and the response (see fail).
type assertSteps struct{}

// steps are the phrases:
//
//	Then the response status is <code>
//	Then the response status is <code> or <code>
//	Then the response status is 4xx                 (a class: 2xx, 4xx, ...; also after "or")
//	Then the response status is 4xx but not 401     (a class less one code: a refusal that is not about credentials)
//	Then the response is JSON
//	Then the response matches the shape "<name>"
//	Then the response matches:                      (doc string)
//	Then the JSON at "<path>" matches the shape "<name>"
//	Then the JSON at "<path>" matches:              (doc string)
//	Then the JSON at "<path>" is <json>
//	Then the JSON at "<path>" is a string|number|boolean|object|array|null
//	Then the JSON at "<path>" matches the pattern "<regexp>"
//	Then the JSON at "<path>" is absent
//	Then the JSON at "<path>" is present
//	Then the JSON at "<path>" differs from <json>
//	Then the JSON at "<path>" names the same instant as "<date>"
//	Then the JSON at "<path>" names an instant no earlier than "<date>"
//	Then the response does not carry the password "<password>"
//	Then the response does not carry the text "<text>"
//	Then the errors are exactly:                    (table fieldName | error)
//	Then the errors include:                        (table fieldName | error)
//	Then the errors name the field "<fieldName>"
//	Then the errors name one of the fields "<fieldName>, <fieldName>"
//	Then the errors name only the field "<fieldName>"
//	Then the errors name only the fields "<a>", "<b>" and "<c>"
//	Then the error messages do not carry the number "<n>"
//	Then the response is one of:                    (table status | shape [| when])
func (a assertSteps) steps() []stepDef {
	return []stepDef{
		{`^the response status is (\d{3}|[1-5]xx)(?: or (\d{3}|[1-5]xx))?(?: but not (\d{3}))?$`, a.theResponseStatusIs},
		{`^the response is JSON$`, a.theResponseIsJSON},
		{`^the response matches the shape ` + match.Quoted + `$`, a.theResponseMatchesTheShape},
		{`^the response matches:$`, a.theResponseMatches},
		{`^the JSON at "(.*?)" matches the shape ` + match.Quoted + `$`, a.theJSONAtMatchesTheShape},
		{`^the JSON at "(.*?)" matches:$`, a.theJSONAtMatches},
		{`^the JSON at "(.*?)" matches the pattern "(.*)"$`, a.theJSONAtMatchesThePattern},
		// As for body fields: a JSON value never starts with "a" or "p", so
		// "is absent", "is present" and "is a string" are not values.
		{`^the JSON at "(.*?)" is ([-"{\[0-9tfn].*)$`, a.theJSONAtIs},
		{`^the JSON at "(.*?)" is an? (string|number|boolean|object|array|null)$`, a.theJSONAtIsA},
		{`^the JSON at "(.*?)" is absent$`, a.theJSONAtIsAbsent},
		{`^the JSON at "(.*?)" is present$`, a.theJSONAtIsPresent},
		{`^the JSON at "(.*?)" differs from ([-"{\[0-9tfn].*)$`, a.theJSONAtDiffersFrom},
		{`^the JSON at "(.*?)" names (the same instant as|an instant no earlier than) "(.*)"$`, a.theJSONAtNamesAnInstant},
		{`^the JSON at "(.*?)" names an instant within the clock skew of now$`, a.theJSONAtNamesNow},
		{`^the response does not carry the password ` + match.Quoted + `$`, a.theResponseDoesNotCarryThePassword},
		{`^the response does not carry the text ` + match.Quoted + `$`, a.theResponseDoesNotCarryTheText},
		{`^the errors are exactly:$`, a.theErrorsAreExactly},
		{`^the errors include:$`, a.theErrorsInclude},
		{`^the errors name the field ` + match.Quoted + `$`, a.theErrorsNameTheField},
		{`^the errors name one of the fields ` + match.Quoted + `$`, a.theErrorsNameOneOfTheFields},
		{`^the errors include the code ` + match.Quoted + ` for the field ` + match.Quoted + `$`, a.theErrorsIncludeTheCodeFor},
		{`^the errors name only the fields? (` + quotedList + `)$`, a.theErrorsNameOnlyTheFields},
		{`^the error messages do not carry the number ` + match.Quoted + `$`, a.theErrorMessagesDoNotCarryTheNumber},
		{`^the response is one of:$`, a.theResponseIsOneOf},
	}
}

// theResponseIsOneOf passes when some row of the table matches: its status,
// and its shape, if any. A shape cell is a shape's name or JSON; empty, the
// status alone decides. An optional column when holds key=value: the row
// applies only when the profile holds that value (a target's choice where
// the spec is silent). It states every answer the spec allows where it
// allows several, each with what that answer must carry.
func (assertSteps) theResponseIsOneOf(ctx context.Context, t *godog.Table) error {
	st, err := response(ctx)
	if err != nil {
		return err
	}
	statusCol, shapeCol, whenCol, err := oneOfColumns(t)
	if err != nil {
		return err
	}
	body := gjson.ParseBytes(st.last.respBody)
	var allowed, why []string
	for _, row := range t.Rows[1:] {
		status := strings.TrimSpace(row.Cells[statusCol].Value)
		shape := strings.TrimSpace(row.Cells[shapeCol].Value)
		if _, err := strconv.Atoi(status); err != nil || len(status) != 3 {
			return fmt.Errorf("status %q is not a three-digit code", status)
		}
		applies := true
		if whenCol >= 0 {
			cond := strings.TrimSpace(row.Cells[whenCol].Value)
			if applies, err = st.suite.profile.Holds(cond); err != nil {
				return err
			}
			if key, _, ok := strings.Cut(cond, "="); ok {
				st.assume(strings.TrimSpace(key))
			}
		}
		label := status
		if shape != "" {
			label += " " + shape
		}
		if applies {
			allowed = append(allowed, label)
			st.askedFor(status)
		}
		mm, err := st.rowMismatches(ctx, label, shape, body)
		if err != nil {
			return err
		}
		if !applies || status != strconv.Itoa(st.last.status) {
			continue
		}
		if len(mm) == 0 {
			st.last.expected = st.last.status >= 500 // a 5xx the table allows on purpose
			return nil
		}
		for _, m := range mm {
			why = append(why, "  "+label+": "+m.String())
		}
	}
	if len(allowed) == 0 {
		return fmt.Errorf("no row of the table applies to this profile")
	}
	if len(why) == 0 {
		return st.fail("expected one of: %s; got status %d", strings.Join(allowed, "; "), st.last.status)
	}
	return st.fail("expected one of: %s; got status %d, which does not match:\n%s", strings.Join(allowed, "; "), st.last.status, strings.Join(why, "\n"))
}

// oneOfColumns are the columns of a "one of" table: status and shape,
// and when (-1 when the table has none).
func oneOfColumns(t *godog.Table) (status, shape, when int, err error) {
	if t == nil || len(t.Rows) < 2 {
		return 0, 0, 0, fmt.Errorf("expected a table with the header | status | shape | (and optionally when) and at least one row")
	}
	status, shape, when = -1, -1, -1
	for i, c := range t.Rows[0].Cells {
		switch strings.TrimSpace(c.Value) {
		case "status":
			status = i
		case "shape":
			shape = i
		case "when":
			when = i
		}
	}
	if status < 0 || shape < 0 {
		return 0, 0, 0, fmt.Errorf("the table header must name the columns status and shape")
	}
	return status, shape, when, nil
}

// rowMismatches matches the last response's body against the shape of a
// row of a "one of" table (a fixture's name or JSON, with variables); none
// for a row without a shape. A malformed shape is an error of the
// feature, whatever the status.
func (st *scenarioState) rowMismatches(ctx context.Context, label, shape string, body gjson.Result) ([]match.Mismatch, error) {
	if shape != "" && !strings.ContainsAny(shape[:1], `{["`) {
		data, err := st.suite.fixture("shapes", shape)
		if err != nil {
			return nil, err
		}
		shape = string(data)
	}
	shape, err := st.substJSON(ctx, shape)
	if err != nil || shape == "" {
		return nil, err
	}
	mm, err := match.Shape(shape, body)
	if err != nil {
		return nil, fmt.Errorf("the shape of %s: %w", label, err)
	}
	if !gjson.ValidBytes(st.last.respBody) {
		mm = append(mm, match.Mismatch{Path: "$", Want: "a JSON body", Got: "not JSON"})
	}
	return mm, nil
}

// response returns the scenario state with a last response, or the error
// that there is none.
func response(ctx context.Context) (*scenarioState, error) {
	st, err := stateFromContext(ctx)
	if err != nil {
		return nil, err
	}
	if st.last == nil {
		return nil, fmt.Errorf("no request has been sent in this scenario")
	}
	if st.last.err != nil {
		return nil, st.fail("the last request got no response")
	}
	return st, nil
}

// theResponseStatusIs takes a code (404) or a class (4xx: any code from
// 400 to 499). A 5xx it accepts is one the scenario asserts on purpose, which
// the floor check (floor.go) then leaves alone.
func (assertSteps) theResponseStatusIs(ctx context.Context, code, alt, not string) error {
	st, err := response(ctx)
	if err != nil {
		return err
	}
	want := []string{code}
	if alt != "" {
		want = append(want, alt)
	}
	got := strconv.Itoa(st.last.status)
	for _, w := range want {
		st.askedFor(w)
	}
	if not != "" && got == not {
		return st.fail("expected status %s but not %s, got %d", strings.Join(want, " or "), not, st.last.status)
	}
	for _, w := range want {
		if got == w || (strings.HasSuffix(w, "xx") && got[:1] == w[:1]) {
			st.last.expected = st.last.status >= 500
			return nil
		}
	}
	if not != "" {
		return st.fail("expected status %s but not %s, got %d", strings.Join(want, " or "), not, st.last.status)
	}
	return st.fail("expected status %s, got %d", strings.Join(want, " or "), st.last.status)
}

func (assertSteps) theResponseIsJSON(ctx context.Context) error {
	st, err := response(ctx)
	if err != nil {
		return err
	}
	ct := st.last.respHeader.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return st.fail("expected Content-Type application/json, got %q", ct)
	}
	if !gjson.ValidBytes(st.last.respBody) {
		return st.fail("the response body is not valid JSON")
	}
	return nil
}

// jsonAt returns the value at a gjson path of the last response body; ""
// and "@this" are the whole body. The path is the step's argument, already
// unescaped; a path that match.CheckPath finds malformed is an error, so that an
// "is absent" step cannot pass on a path that could never match.
func (st *scenarioState) jsonAt(ctx context.Context, path string) (gjson.Result, error) {
	if st.last == nil {
		return gjson.Result{}, fmt.Errorf("no request has been sent in this scenario")
	}
	if st.last.err != nil {
		return gjson.Result{}, st.fail("the last request got no response")
	}
	path, err := st.substText(ctx, path)
	if err != nil {
		return gjson.Result{}, err
	}
	if !gjson.ValidBytes(st.last.respBody) {
		return gjson.Result{}, st.fail("the response body is not valid JSON, so it has no JSON at %q", path)
	}
	if path == "" || path == "@this" {
		return gjson.ParseBytes(st.last.respBody), nil
	}
	if err := match.CheckPath(path); err != nil {
		return gjson.Result{}, err
	}
	return match.Get(st.last.respBody, path), nil
}

func (a assertSteps) theResponseMatchesTheShape(ctx context.Context, name string) error {
	return a.theJSONAtMatchesTheShape(ctx, "", name)
}

func (a assertSteps) theResponseMatches(ctx context.Context, doc *godog.DocString) error {
	return a.theJSONAtMatches(ctx, "", doc)
}

func (a assertSteps) theJSONAtMatchesTheShape(ctx context.Context, path, name string) error {
	path, name = match.UnescapeArg(path), match.UnescapeArg(name)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	shape, err := st.suite.fixture("shapes", name)
	if err != nil {
		return err
	}
	return a.matchAt(ctx, path, "the shape "+name, string(shape))
}

func (a assertSteps) theJSONAtMatches(ctx context.Context, path string, doc *godog.DocString) error {
	return a.matchAt(ctx, match.UnescapeArg(path), "the shape", doc.Content)
}

func (assertSteps) matchAt(ctx context.Context, path, what, shape string) error {
	st, err := response(ctx)
	if err != nil {
		return err
	}
	v, err := st.jsonAt(ctx, path)
	if err != nil {
		return err
	}
	shape, err = st.substJSON(ctx, shape)
	if err != nil {
		return err
	}
	mm, err := match.Shape(shape, v)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(mm) == 0 {
		return nil
	}
	lines := make([]string, len(mm))
	for i, m := range mm {
		lines[i] = "  " + m.String()
	}
	where := "the response"
	if path != "" && path != "@this" {
		where = fmt.Sprintf("the JSON at %q", path)
	}
	return st.fail("%s does not match %s (%d mismatches):\n%s", where, what, len(mm), strings.Join(lines, "\n"))
}

// theJSONAtIs takes the expected value as JSON, with JSON's own escapes: only
// the quoted path is a step argument to unescape.
func (assertSteps) theJSONAtIs(ctx context.Context, path, raw string) error {
	st, path, want, v, err := expectedAt(ctx, path, raw)
	if err != nil {
		return err
	}
	if !match.JSONEqual(want, v) {
		return st.fail("the JSON at %q: expected %s, got %s", path, want.Raw, match.Describe(v))
	}
	return nil
}

// expectedAt reads a step's quoted path and JSON value: the value with its
// variables substituted, and the JSON of the last response at the path.
func expectedAt(ctx context.Context, quotedPath, raw string) (*scenarioState, string, gjson.Result, gjson.Result, error) {
	path := match.UnescapeArg(quotedPath)
	st, err := response(ctx)
	if err != nil {
		return nil, path, gjson.Result{}, gjson.Result{}, err
	}
	text, err := st.substJSON(ctx, raw)
	if err != nil {
		return nil, path, gjson.Result{}, gjson.Result{}, err
	}
	if !gjson.Valid(text) {
		return nil, path, gjson.Result{}, gjson.Result{}, fmt.Errorf("expected value %s is not JSON", text)
	}
	v, err := st.jsonAt(ctx, path)
	return st, path, gjson.Parse(text), v, err
}

// valueAt is the JSON of the last response at a path written as a quoted
// step argument; it returns the path unescaped, for messages.
func valueAt(ctx context.Context, quotedPath string) (*scenarioState, string, gjson.Result, error) {
	path := match.UnescapeArg(quotedPath)
	st, err := response(ctx)
	if err != nil {
		return nil, path, gjson.Result{}, err
	}
	v, err := st.jsonAt(ctx, path)
	return st, path, v, err
}

func (assertSteps) theJSONAtIsA(ctx context.Context, path, typ string) error {
	st, path, v, err := valueAt(ctx, path)
	if err != nil {
		return err
	}
	if !match.MarkerTests[typ](v) {
		return st.fail("the JSON at %q: expected a %s, got %s", path, typ, match.Describe(v))
	}
	return nil
}

func (assertSteps) theJSONAtMatchesThePattern(ctx context.Context, path, pattern string) error {
	path = match.UnescapeArg(path)
	st, pattern, err := stateArg(ctx, response, pattern)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("pattern %q: %w", pattern, err)
	}
	v, err := st.jsonAt(ctx, path)
	if err != nil {
		return err
	}
	if v.Type != gjson.String || !re.MatchString(v.Str) {
		return st.fail("the JSON at %q: expected a string matching %q, got %s", path, pattern, match.Describe(v))
	}
	return nil
}

func (assertSteps) theJSONAtIsAbsent(ctx context.Context, path string) error {
	st, path, v, err := valueAt(ctx, path)
	if err != nil {
		return err
	}
	if v.Exists() {
		return st.fail("the JSON at %q: expected absent, got %s", path, match.Describe(v))
	}
	return nil
}

func (assertSteps) theJSONAtIsPresent(ctx context.Context, path string) error {
	st, path, v, err := valueAt(ctx, path)
	if err != nil {
		return err
	}
	if !v.Exists() {
		return st.fail("the JSON at %q: expected present, got absent", path)
	}
	return nil
}

// theJSONAtDiffersFrom is the negation of theJSONAtIs: the value is there
// and is not the one given.
func (assertSteps) theJSONAtDiffersFrom(ctx context.Context, path, raw string) error {
	st, path, other, v, err := expectedAt(ctx, path, raw)
	if err != nil {
		return err
	}
	if !v.Exists() || match.JSONEqual(other, v) {
		return st.fail("the JSON at %q: expected a value other than %s, got %s", path, other.Raw, match.Describe(v))
	}
	return nil
}

// theJSONAtNamesAnInstant compares two ISO 8601 values as instants, each as
// precise as it is written (match.ParseISORange, steps/match/instant.go):
// the same instant when the two may name one, no earlier unless the value
// ends before the other begins. So a later read may write the same instant
// in another form, and a server that dates by the second or by the day is
// not failed for it.
func (assertSteps) theJSONAtNamesAnInstant(ctx context.Context, path, relation, other string) error {
	path = match.UnescapeArg(path)
	st, other, err := stateArg(ctx, response, other)
	if err != nil {
		return err
	}
	want, err := match.ParseISORange(other)
	if err != nil {
		return fmt.Errorf("the date to compare with: %w", err)
	}
	v, got, err := st.dateAt(ctx, path)
	if err != nil {
		return err
	}
	if relation == "the same instant as" && !got.SameInstant(want) {
		return st.fail("the JSON at %q: expected the instant of %s, got %s, another instant", path, other, v.Raw)
	}
	if relation == "an instant no earlier than" && !got.NoEarlierThan(want) {
		return st.fail("the JSON at %q: expected an instant no earlier than %s, got %s, before it", path, other, v.Raw)
	}
	return nil
}

// dateAt is the value at path and the span of time it names, as precise as
// it is written: a value that is no ISO 8601 date fails the step.
func (st *scenarioState) dateAt(ctx context.Context, path string) (gjson.Result, match.ISORange, error) {
	v, err := st.jsonAt(ctx, path)
	if err != nil {
		return v, match.ISORange{}, err
	}
	got, err := match.ParseISORange(v.Str)
	if v.Type != gjson.String || err != nil {
		return v, got, st.fail("the JSON at %q: expected an ISO 8601 date, got %s", path, match.Describe(v))
	}
	return v, got, nil
}

// theJSONAtNamesNow checks a date of an event that just happened against
// the runner's clock, within the profile's clock_skew: a server whose dates
// are all hours off (local time labelled Z, an epoch) is consistent with
// itself, so only another clock shows it.
func (assertSteps) theJSONAtNamesNow(ctx context.Context, path string) error {
	path = match.UnescapeArg(path)
	st, err := response(ctx)
	if err != nil {
		return err
	}
	skew, err := time.ParseDuration(st.suite.profile.MustValue("clock_skew"))
	if err != nil {
		return err
	}
	v, got, err := st.dateAt(ctx, path)
	if err != nil {
		return err
	}
	now := time.Now()
	if !got.Hi.After(st.last.sent.Add(-skew)) || !got.Lo.Before(now.Add(skew)) {
		return st.fail("the JSON at %q: expected the date of an event that just happened, within %s of the runner's clock (%s, clock_skew, PRICING_CLOCK_SKEW), got %s",
			path, skew, now.UTC().Format(time.RFC3339), v.Raw)
	}
	return nil
}

// theResponseDoesNotCarryThePassword checks spec 2.1, "The password is never
// returned", in any answer: no string of the body holds the password, nor
// its MD5, SHA-1 or SHA-256 (hexadecimal or base64), and none is a stored
// password hash in a common format (bcrypt, Argon2, scrypt, PBKDF2).
func (assertSteps) theResponseDoesNotCarryThePassword(ctx context.Context, password string) error {
	st, password, err := sought(ctx, password, "password")
	if err != nil {
		return err
	}
	st.addSecret(password)
	known := match.SentStrings(st.last.out.body)
	if st.pair != nil {
		for _, a := range st.pair.accounts {
			known = append(known, a.email)
		}
	}
	if where := match.PasswordIn(st.last.respBody, password, known...); where != "" {
		return st.fail("the response carries the password: %s", where)
	}
	return nil
}

// sought is the state with a response and the text a step looks for in
// it (arg, unescaped and substituted), which may not be empty.
func sought(ctx context.Context, arg, what string) (*scenarioState, string, error) {
	st, text, err := stateArg(ctx, response, arg)
	if err == nil && text == "" {
		err = fmt.Errorf("an empty %s cannot be looked for", what)
	}
	return st, text, err
}

// theResponseDoesNotCarryTheText checks that neither the body nor a header
// of the answer holds the text (another account's word or secret, 5).
func (assertSteps) theResponseDoesNotCarryTheText(ctx context.Context, text string) error {
	st, text, err := sought(ctx, text, "text")
	if err != nil {
		return err
	}
	if strings.Contains(string(st.last.respBody), text) {
		return st.fail("the response's body carries %q", text)
	}
	for name, vs := range st.last.respHeader {
		for _, v := range vs {
			if strings.Contains(v, text) {
				return st.fail("the response's header %s carries %q", name, text)
			}
		}
	}
	return nil
}
