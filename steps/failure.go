package steps

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

// The failure report: a failing step shows the request as curl and the
// response, with every secret of the scenario masked.

// Failure output.

const dumpLimit = 4 << 10

func (st *scenarioState) addSecret(s string) {
	if s != "" {
		st.secrets = append(st.secrets, s)
	}
}

// fail is the error of a failing step: the message, then the last request
// as curl and the response.
func (st *scenarioState) fail(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if st.last == nil {
		return errors.New(msg + st.assumptions() + "\n(no request was sent in this scenario)")
	}
	st.last.shown = true
	if r, ok := st.suite.refusedProfileValue(st.last); ok {
		// The target refused a value the suite took from the profile and
		// the preflight could not check: the profile is what to fix, and
		// the choices the scenario assumed are not the cause.
		msg = profileErrorPrefix + r.String() + "; if that is not a valid value on the target, set one that is\n" + msg
	} else {
		msg += st.assumptions()
	}
	return errors.New(msg + "\n\n" + st.dump(st.last))
}

// dump shows an exchange as a curl command and the response, with api
// keys, session tokens and passwords replaced by ***.
func (st *scenarioState) dump(ex *exchange) string {
	var b strings.Builder
	b.WriteString("curl -sS -X " + ex.out.method + " " + shellQuote(st.maskURL(ex.url)))
	names := make([]string, 0, len(ex.out.header))
	for k := range ex.out.header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range ex.out.header[k] {
			b.WriteString(" \\\n  -H " + shellQuote(k+": "+st.maskHeader(k, v)))
		}
	}
	if ex.out.body != nil {
		b.WriteString(" \\\n  --data-raw " + shellQuote(truncate(st.maskBody(ex.out.header.Get("Content-Type"), ex.out.body))))
	}
	b.WriteByte('\n')
	if ex.err != nil {
		b.WriteString("no response: " + st.maskText(ex.err.Error()) + "\n")
		return b.String()
	}
	fmt.Fprintf(&b, "response status: %s\n", ex.statusText)
	if loc := ex.respHeader.Get("Location"); loc != "" && ex.status >= 300 && ex.status <= 399 {
		// A redirect is an answer: never followed (target.NewClient).
		b.WriteString("Location: " + st.maskURL(loc) + " (not followed: no redirect is)\n")
	}
	if ct := ex.respHeader.Get("Content-Type"); ct != "" {
		b.WriteString("Content-Type: " + ct + "\n")
	}
	b.WriteString(truncate(st.maskBody(ex.respHeader.Get("Content-Type"), ex.respBody)))
	b.WriteByte('\n')
	return b.String()
}

func truncate(s string) string {
	if len(s) <= dumpLimit {
		return s
	}
	return s[:dumpLimit] + fmt.Sprintf("… (%d bytes in all)", len(s))
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maskText replaces the secrets this scenario knows: the profile's
// passwords and api keys and every session token it obtained.
func (st *scenarioState) maskText(s string) string {
	for _, secret := range st.secrets {
		if len(secret) >= 4 {
			s = strings.ReplaceAll(s, secret, "***")
		}
	}
	return s
}

func (st *scenarioState) maskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return st.maskText(raw)
	}
	q := u.Query()
	if _, ok := q["sessionToken"]; ok {
		for i, v := range q["sessionToken"] {
			if v != "" {
				q["sessionToken"][i] = "***"
			}
		}
		u.RawQuery = strings.ReplaceAll(q.Encode(), "%2A%2A%2A", "***")
	}
	return st.maskText(u.String())
}

var schemeWords = map[string]bool{"api-key": true, "bearer": true, "basic": true}

func (st *scenarioState) maskHeader(name, v string) string {
	switch {
	case v == "":
		return v
	case strings.EqualFold(name, "Authorization"):
		scheme, rest, ok := strings.Cut(v, " ")
		if !ok {
			if schemeWords[strings.ToLower(v)] {
				return v
			}
			return "***"
		}
		if strings.TrimSpace(rest) == "" {
			return v
		}
		return scheme + " ***"
	case strings.EqualFold(name, "session-token"):
		return "***"
	}
	return st.maskText(v)
}

var (
	secretKey     = regexp.MustCompile(`(?i)^(password|token|session-?token|api[-_]?key)$`)
	formPasswords = regexp.MustCompile(`(?i)((?:^|&)(?:password|token|sessionToken)=)[^&]*`)
)

// maskBody hides the string values of password, token and api-key fields
// of a JSON body (at any depth) and password fields of a form body, then
// every known secret.
func (st *scenarioState) maskBody(contentType string, body []byte) string {
	s := string(body)
	if mt, _, _ := mime.ParseMediaType(contentType); mt == "application/x-www-form-urlencoded" {
		return st.maskText(formPasswords.ReplaceAllString(s, "${1}***"))
	}
	if gjson.Valid(s) {
		var literals []string
		collectSecretLiterals(gjson.Parse(s), &literals)
		for _, l := range literals {
			s = strings.ReplaceAll(s, l, `"***"`)
		}
	}
	return st.maskText(s)
}

func collectSecretLiterals(v gjson.Result, out *[]string) {
	v.ForEach(func(k, e gjson.Result) bool {
		if k.Type == gjson.String && secretKey.MatchString(k.Str) && e.Type == gjson.String && e.Str != "" {
			*out = append(*out, e.Raw)
		}
		if e.IsObject() || e.IsArray() {
			collectSecretLiterals(e, out)
		}
		return true
	})
}

// fixture reads <dir>/<name>.json: from Options.FixturesDir when it has
// the file, else from the embedded fixtures.
func (s *Suite) fixture(dir, name string) ([]byte, error) {
	file := name + ".json"
	if !fs.ValidPath(file) || strings.Contains(name, "/") {
		return nil, fmt.Errorf("%q is not a fixture name", name)
	}
	if s.opts.FixturesDir != "" {
		data, err := os.ReadFile(filepath.Join(s.opts.FixturesDir, dir, file))
		if err == nil {
			return data, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	fsys := fixtures.Shapes()
	if dir == "bodies" {
		fsys = fixtures.Bodies()
	}
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		kind := "shape"
		if dir == "bodies" {
			kind = "body template"
		}
		return nil, fmt.Errorf("no %s %q (fixtures/%s/%s): %w", kind, name, dir, file, err)
	}
	return data, nil
}
