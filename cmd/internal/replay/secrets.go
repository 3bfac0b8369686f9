package replay

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Secrets: a recording's credentials are never stored nor written. The
// replay reads them to tell its accounts apart (accounts.go) and sends the
// profile's instead (normalise.go); no output it writes quotes a recorded
// request, but to be sure, every output passes through a redactor that
// replaces each secret the recording holds with "***": the api keys and
// tokens of its headers and queries, the passwords of its bodies, every
// value of a field, header or query argument whose name says key, token,
// secret, auth, password, cookie or credential (the mock's journal masks
// the same names: mockserver/mask.go), in requests and answers alike.

// minSecret is the shortest value the redactor replaces, the spec's
// shortest password: a shorter one would blank ordinary words of the
// reports (and no shorter password logs in).
const minSecret = 6

// secrets are the recorded secrets, longest first.
type secrets []string

// collectSecrets gathers a recording's secrets.
func collectSecrets(rec *Recording) secrets {
	set := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) >= minSecret && !strings.Contains(s, maskedSecret) {
			set[s] = true
		}
	}
	for _, r := range rec.Requests {
		for name, vs := range r.Header {
			if !pricing.SecretName(name) {
				continue
			}
			for _, v := range vs {
				add(v)
				if _, after, ok := strings.Cut(v, " "); ok {
					add(after) // the secret after the scheme word
				}
				for _, part := range strings.Split(v, ";") {
					if _, val, ok := strings.Cut(part, "="); ok {
						add(val) // a cookie's value
					}
				}
			}
		}
		for name, vs := range r.URL.Query() {
			if pricing.SecretName(name) {
				for _, v := range vs {
					add(v)
				}
			}
		}
		for _, body := range [][]byte{r.Body, r.Answer} {
			bodySecrets(body, add)
		}
		for _, d := range r.dropped {
			add(d)
		}
	}
	out := make(secrets, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// dropSecrets are the secrets of the body and answer of r, which the
// reader does not keep of a request that names no API.
func dropSecrets(r *Request) []string {
	var out []string
	for _, body := range [][]byte{r.Body, r.Answer} {
		bodySecrets(body, func(s string) { out = append(out, s) })
	}
	return out
}

// bodySecrets finds the values of secret fields in a JSON or form body.
func bodySecrets(body []byte, add func(string)) {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return
	}
	var v any
	if json.Unmarshal(t, &v) == nil {
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				for k, e := range x {
					if s, ok := e.(string); ok && pricing.SecretName(k) {
						add(s)
					}
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(v)
		return
	}
	if q, err := url.ParseQuery(string(t)); err == nil {
		for k, vs := range q {
			if pricing.SecretName(k) {
				for _, s := range vs {
					add(s)
				}
			}
		}
	}
}

// has reports whether s is a recorded secret.
func (ss secrets) has(s string) bool { return slices.Contains(ss, s) }

// redact replaces every recorded secret in text, in clear and as JSON or a
// URL would escape it.
func (ss secrets) redact(text string) string {
	for _, s := range ss {
		if !strings.Contains(text, s) && !strings.Contains(text, url.QueryEscape(s)) {
			continue
		}
		text = strings.ReplaceAll(text, s, maskedSecret)
		text = strings.ReplaceAll(text, url.QueryEscape(s), maskedSecret)
	}
	return text
}
