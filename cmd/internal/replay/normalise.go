package replay

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The fourth stage: each request of the API as the explorer's step, on the
// profile's accounts. What the recording holds is sent as recorded, with
// these exceptions, each noted in the reports:
//
//   - credentials: the step names the account and the scheme; the wire
//     sends the target's own api key or session token (its latest), never
//     a recorded one. A masked credential answered 401 is a wrong one.
//   - passwords: a PUT /users that sets one sends a password the replay
//     makes, of as many characters as the recorded one (12 when the journal
//     masked it, 5 when its recorded answer refused it); a login answered
//     200 sends the account's password now (the profile's, or the one the
//     replay set), any other a wrong one of the same length.
//   - emails: an account's first email is the profile account's; any other
//     address (a new one a PUT /users sets) becomes a fresh address at the
//     profile's email_domain, the same one wherever the recording repeats it.
//   - ids: a user or client id in a path is the target's id of the same
//     account, or of the client the same recorded request made; an id the
//     recording shows nothing of is the explorer's unknown one.
//   - catalogues: a currency, plan, platform or phone country id, or a
//     marketplace app's hash, that the recorded server accepted and the
//     target's catalogue lacks is the profile's (another currency or phone
//     country id of that kind is another of the target's: distinctIDs).
//   - any other field whose name says key, token, secret, auth, password,
//     cookie or credential is sent as "***".

// catalogueOf names the catalogue an id field of a body belongs to, by the
// object it is in.
var catalogueOf = map[string]string{"currency": "currencies", "nextplan": "plans", "platform": "platforms", "phoneCountry": "phoneCountries"}

// mapper maps a recording's values onto the target's.
type mapper struct {
	cat      explore.Catalogue
	pair     map[string]explore.Account
	accounts *accountMap
	avoid    func(string) bool // a secret a made password must not equal
	emails   map[string]string // recorded address (lower case) -> sent
	password map[string]string // account -> its password now, "" the profile's
	// setBy are the calls that set a password (by account) or an address
	// (by the address sent) that later logins use.
	setBy map[string]*call
	rnd   *rand.Rand
	// alias is the target's id each recorded id of a catalogue that the
	// target lacks is sent as, the same wherever the recording repeats it.
	alias map[string]map[int64]int64 // catalogue -> recorded -> sent
}

// build makes each sendable call's step.
func (m *mapper) build(calls []*call) {
	for _, c := range calls {
		if c.skip != "" || c.op == "" {
			continue
		}
		m.step(c)
	}
}

func (m *mapper) step(c *call) {
	node := m.accounts.actor[c]
	actor, why := m.accounts.of(node)
	status := c.req.Status
	// A wrong credential: a masked one the recorded server refused, or one
	// in clear it accepted nowhere.
	wrong := c.cred.scheme != "none" && c.op != explore.OpLogin &&
		(c.cred.masked && status == 401 || !c.cred.masked && !m.accounts.ids.authed[secretNode(c.cred)])
	switch {
	case actor != "":
	case c.op == explore.OpLogin && status == 200, c.op != explore.OpLogin && c.cred.scheme != "none" && !wrong:
		c.skip = why
		return
	default:
		// No credential, a wrong one, or a login that opened no session:
		// the account it acts as does not change the answer.
		actor = m.pathOwner(c)
	}
	c.actor = actor
	st := explore.Step{Op: c.op, Actor: actor, Version: c.version, Recorded: c.label, ContentType: c.ctype, Wire: c.wire}
	if c.op != explore.OpLogin {
		st.Cred = explore.Cred{Scheme: c.cred.scheme, Op: c.cred.op}
		if wrong {
			st.Cred.Op = "wrong-secret"
			c.note("its credential, which the recorded server accepted nowhere, is sent as a wrong one")
		}
	}
	switch c.op {
	case explore.OpPutUser:
		st.Path, st.PathID = m.userPath(c)
	case explore.OpPutClient:
		if !m.clientPath(c, &st) {
			return
		}
	case explore.OpLogin:
		m.loginStep(c, &st)
		c.step = st
		return
	}
	if c.body != nil {
		st.Base = m.body(c)
		if c.skip != "" {
			return
		}
	}
	c.step = st
}

// pathOwner is the account whose user or client a PUT's path names, or A.
func (m *mapper) pathOwner(c *call) string {
	for _, n := range []string{"user:" + c.pathID, "client:" + c.pathID} {
		if (c.op == explore.OpPutUser) != strings.HasPrefix(n, "user:") {
			continue
		}
		if name, _ := m.accounts.of(n); name != "" && plainID(c.pathID) {
			return name
		}
	}
	return "A"
}

func (c *call) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// pathForm is the explorer's path operator of an id that is no plain one.
func pathForm(id string) (op, literal string) {
	switch {
	case id == "0":
		return "zero", "0"
	case strings.HasPrefix(id, "-"):
		return "negative", id
	case strings.Contains(id, "."):
		return "decimal", id
	case regexp.MustCompile(`^0[0-9]+$`).MatchString(id):
		return "leading-zero", id
	case regexp.MustCompile(`^[0-9]+$`).MatchString(id):
		return "past-int64", id
	}
	return "letters", id
}

// userPath is the path operator of a PUT /users: the actor's own user, the
// other account's, or one the recording shows nothing of.
func (m *mapper) userPath(c *call) (string, string) {
	if !plainID(c.pathID) {
		return pathForm(c.pathID)
	}
	owner, _ := m.accounts.of("user:" + c.pathID)
	switch {
	case owner == "" && c.req.Status == 403:
		c.note("user %s, none of the recording's accounts, which the recorded server refused as another's (403), is the other account's", c.pathID)
		return "other", ""
	case owner == "":
		c.note("user %s of the recording is none of its accounts: sent as the explorer's unknown id", c.pathID)
		return "unknown", "999999999"
	}
	if owner == c.actor {
		return "own", ""
	}
	return "other", ""
}

// clientPath sets the path operator of a PUT /clients; false when the
// client cannot be named on the target.
func (m *mapper) clientPath(c *call, st *explore.Step) bool {
	if !plainID(c.pathID) {
		st.Path, st.PathID = pathForm(c.pathID)
		return true
	}
	if maker, ok := m.accounts.madeBy[c.pathID]; ok {
		if maker.skip != "" {
			c.skip = "its client is the one " + maker.label + " made, which is not sent"
			return false
		}
		if maker.actor != c.actor {
			c.skip = "its client is the one " + maker.label + " made for another account: the replay names another's new client by no path"
			return false
		}
		st.Path, st.PathID, c.made = "created", maker.label, maker.label
		c.deps = append(c.deps, maker)
		return true
	}
	owner, _ := m.accounts.of("client:" + c.pathID)
	switch {
	case owner == "" && c.req.Status == 403:
		st.Path = "other"
		c.note("client %s, none of the recording's accounts', which the recorded server refused as another's (403), is the other account's", c.pathID)
	case owner == "":
		st.Path, st.PathID = "unknown", "999999999"
		c.note("client %s of the recording is none of its accounts': sent as the explorer's unknown id", c.pathID)
	case owner == c.actor:
		st.Path = "own"
	default:
		st.Path = "other"
	}
	return true
}

// loginStep writes a login's email and password as the explorer's
// templates: the account's own ({{A.email}}), or a literal.
func (m *mapper) loginStep(c *call, st *explore.Step) {
	l := c.login
	email := m.email(l.email)
	if !l.hasEmail {
		email = ""
	}
	if acct, ok := m.pair[st.Actor]; ok && strings.EqualFold(email, acct.Email) {
		email = "{{" + st.Actor + ".email}}"
	}
	if by, ok := m.setBy["email:"+strings.ToLower(email)]; ok {
		c.deps = append(c.deps, by)
	}
	var password string
	switch {
	case c.req.Status == 200:
		password = m.password[st.Actor]
		if password == "" {
			password = "{{" + st.Actor + ".password}}"
		} else {
			c.deps = append(c.deps, m.setBy["password:"+st.Actor])
		}
	case !l.passwordPresent || !l.passwordMasked && l.password == "":
		password = ""
	case l.passwordMasked && c.req.Status == 400:
		password = ""
		c.note("its password (masked, refused as missing) is sent empty")
	default:
		n := len([]rune(l.password))
		if l.passwordMasked {
			n = 14
		}
		password = m.madePassword(l.password, n, m.password[st.Actor])
		c.note("its password, which the recorded server refused, is sent as a wrong one the replay made")
	}
	st.Login = [2]string{email, password}
}

// email is the address a recorded one is sent as.
func (m *mapper) email(e string) string {
	if !strings.Contains(e, "@") {
		return e
	}
	key := strings.ToLower(e)
	if sent, ok := m.emails[key]; ok {
		return sent
	}
	sent := ""
	if _, ok := m.accounts.ids.parent[emailNode(e)]; ok {
		root := m.accounts.ids.find(emailNode(e))
		if name, ok := m.accounts.profile[root]; ok && m.accounts.original(root) == key {
			sent = m.pair[name].Email
		}
	}
	if sent == "" {
		local, _, _ := strings.Cut(e, "@")
		local = regexp.MustCompile(`[^A-Za-z0-9._+-]`).ReplaceAllString(local, "")
		if len(local) > 40 {
			local = local[:40]
		}
		sent = "replay-" + m.word(6) + "-" + strings.Trim(local, ".") + "@" + m.cat.EmailDomain
	}
	m.emails[key] = sent
	return sent
}

func (m *mapper) word(n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('a' + m.rnd.IntN(26)))
	}
	return b.String()
}

// madePassword is a password of n characters that is not unlike: the
// recorded one's letters replaced, a character outside ASCII kept as
// such (é), so that its length in characters and in bytes keeps its side
// of the spec's limits.
func (m *mapper) madePassword(recorded string, n int, unlike string) string {
	rs := []rune(recorded)
	for {
		var b strings.Builder
		for i := range n {
			if i < len(rs) && rs[i] > 127 {
				b.WriteRune('é')
				continue
			}
			b.WriteByte("abcdefghijkmnpqrstuvwxyz23456789"[m.rnd.IntN(32)])
		}
		if p := b.String(); p != unlike && p != recorded && !m.avoid(p) {
			return p
		}
	}
}

// body maps a recorded body's values onto the target's.
func (m *mapper) body(c *call) map[string]any {
	b := explore.CopyBody(c.body)
	accepted := c.req.Status == 200
	if c.op == explore.OpPutUser {
		if e, ok := b["email"].(string); ok {
			sent := m.email(e)
			if sent != e {
				b["email"] = sent
				c.note("email %s is sent as %s", e, sent)
			}
			if accepted && !strings.EqualFold(sent, m.pair[c.actor].Email) {
				m.setBy["email:"+strings.ToLower(sent)] = c
			}
		}
		if pw, ok := b["password"].(string); ok {
			n := len([]rune(pw))
			switch {
			case pw == maskedSecret && c.req.Status == 400 && answerNames(c.req, "password"):
				n = 5
			case pw == maskedSecret:
				n = 12
			}
			made := m.madePassword(pw, n, "")
			b["password"] = made
			c.note("its password is one the replay made, of %d characters", n)
			if accepted {
				m.password[c.actor], m.setBy["password:"+c.actor] = made, c
			}
		}
	}
	if (c.op == explore.OpPostClient || c.op == explore.OpPutUser && b["client"] != nil) && !m.cat.SeveralClients {
		c.skip = "it makes a client, and the profile says a user holds one (clients_per_user): the reference cannot judge another"
		return nil
	}
	m.walk(c, b, "", accepted)
	return b
}

// walk maps catalogue ids and hashes, and masks secret fields, at every
// level of a body.
func (m *mapper) walk(c *call, o map[string]any, path string, accepted bool) {
	for k, v := range o {
		at := path + k
		switch x := v.(type) {
		case map[string]any:
			if cat, ok := catalogueOf[k]; ok {
				m.catalogueID(c, x, at, cat, accepted)
			}
			if k == "marketapp" {
				m.hash(c, x, at, accepted)
			}
			m.walk(c, x, at+".", accepted)
		case string:
			if at != "password" && x != maskedSecret && pricing.SecretName(k) {
				o[k] = maskedSecret
				c.note("%s is sent as %q", at, maskedSecret)
			}
		}
	}
}

func (m *mapper) catalogueID(c *call, o map[string]any, at, cat string, accepted bool) {
	n, ok := o["id"].(json.Number)
	if !ok || !accepted {
		return
	}
	id, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return
	}
	for _, x := range m.cat.IDs[cat] {
		if x == id {
			return
		}
	}
	to, ok := m.alias[cat][id]
	if !ok {
		to = m.cat.Default[cat][c.actor]
		if to == 0 {
			return
		}
		taken := map[int64]bool{}
		for _, x := range m.alias[cat] {
			taken[x] = true
		}
		if distinctIDs[cat] && taken[to] {
			// Another recorded id took the profile's: a change from one to
			// the other stays a change.
			for _, x := range m.cat.IDs[cat] {
				if !taken[x] {
					to = x
					break
				}
			}
		}
		if m.alias == nil {
			m.alias = map[string]map[int64]int64{}
		}
		if m.alias[cat] == nil {
			m.alias[cat] = map[int64]int64{}
		}
		m.alias[cat][id] = to
	}
	o["id"] = json.Number(strconv.FormatInt(to, 10))
	if to == m.cat.Default[cat][c.actor] {
		c.note("%s.id %d, which the recorded server accepted and the target's %s lack, is sent as the profile's %d", at, id, cat, to)
	} else {
		c.note("%s.id %d, which the recorded server accepted and the target's %s lack, is sent as %d, one of the target's no other recorded id took", at, id, cat, to)
	}
}

// distinctIDs are the catalogues whose every id a body may take, so that
// two recorded ids the target lacks are sent as two of its own: a client
// whose currency changed from one to the other is sent changing it too.
// A plan's kind and a platform decide what an app may be, and are not.
var distinctIDs = map[string]bool{"currencies": true, "phoneCountries": true}

func (m *mapper) hash(c *call, o map[string]any, at string, accepted bool) {
	h, ok := o["hash"].(string)
	if !ok {
		return
	}
	if !m.cat.SeveralApps {
		c.skip = "it makes an app from a marketplace app, and the profile says a marketplace app has one app (apps_per_marketapp): the reference cannot judge another"
		return
	}
	if accepted && hexHash40.MatchString(h) && !strings.EqualFold(h, m.cat.Hash) && m.cat.Hash != "" {
		o["hash"] = m.cat.Hash
		c.note("%s.hash %s, which the recorded server accepted, is sent as the profile's marketplace app %s", at, h, m.cat.Hash)
	}
}

var hexHash40 = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

// answerNames reports whether a recorded 400 names a field.
func answerNames(r *Request, field string) bool {
	var arr []struct {
		FieldName string `json:"fieldName"`
	}
	if json.Unmarshal(r.Answer, &arr) != nil {
		return false
	}
	for _, e := range arr {
		if e.FieldName == field {
			return true
		}
	}
	return false
}
