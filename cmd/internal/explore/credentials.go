package explore

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/pricing-contract/pricing-contract/steps"
)

// Where a step's credential goes, with the accounts' secrets: for the
// target (its secrets) and for the reference (its own). Above the world
// (the accounts) and the wire (the credential's place).

// secrets are an account's api key and session token.
type secrets struct{ key, token string }

// credentialOf is where a step's credential goes, for the actor's secrets
// and the other account's: the headers (each name as the operator writes
// it) and the query. The target gets its own secrets; the reference its
// own.
func (wd *world) credentialOf(st *Step, own, other secrets) (http.Header, url.Values) {
	h, q := http.Header{}, url.Values{}
	c := placeOf(st.Cred)
	if c.name == "" {
		return h, q
	}
	put := func(c credPlace, v string) {
		if c.query {
			q.Set(c.name, v)
		} else {
			h[c.name] = []string{v} // the name as the operator writes it
		}
	}
	if st.Op == OpLogin {
		if st.Cred.Op == credAtLogin.Name {
			put(c, c.with(other.key, other.token))
		}
		return h, q
	}
	v := c.with(own.key, own.token)
	if change, ok := nearMisses[st.Cred.Op]; ok {
		secret := own.key
		if st.Cred.Scheme != "api-key" {
			secret = own.token
		}
		near := steps.NearMiss(secret, change, wd.taken)
		v = c.with(near, near)
	}
	put(c, v)
	if b, whose := besidePlace(st.Cred); b.name != "" {
		s := own
		if whose == credBesideOther {
			s = other
		}
		put(b, b.with(s.key, s.token))
	}
	return h, q
}

// expandLogin is a login template with the accounts' values.
func expandLogin(t string, acct map[string]*accountState) string {
	var pairs []string
	for name, a := range acct {
		pairs = append(pairs, "{{upper:"+name+".email}}", strings.ToUpper(a.email), "{{upper:"+name+".password}}", strings.ToUpper(a.password),
			"{{"+name+".email}}", a.email, "{{"+name+".password}}", a.password)
	}
	return strings.NewReplacer(pairs...).Replace(t)
}

// A login member left out, or sent as null: marks the login operators put
// in Step.Login in place of a value (a check skipped when a member is
// absent lets the email alone open a session).
const (
	loginLeftOut = "\x00left-out"
	loginNull    = "\x00null"
)

// loginSent reports whether a login member is sent with a value.
func loginSent(t string) bool { return t != loginLeftOut && t != loginNull }

// loginMembers is a login's body: its email and password with the
// accounts' templates expanded (none with acct nil: as the reproducer
// writes them), left out or null where an operator made them so.
func loginMembers(login [2]string, acct map[string]*accountState) map[string]any {
	b := map[string]any{}
	for i, k := range []string{"email", "password"} {
		switch login[i] {
		case loginLeftOut:
		case loginNull:
			b[k] = nil
		default:
			b[k] = expandLogin(login[i], acct)
		}
	}
	return b
}

// plainLogin reports whether a login is the suite's own phrase: a JSON or
// form body of the email and the password, both sent.
func plainLogin(st Step) bool {
	return st.Wire == "" && loginSent(st.Login[0]) && loginSent(st.Login[1])
}
