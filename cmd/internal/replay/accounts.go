package replay

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
)

// The third stage: the recording's accounts, mapped onto the profile's. A
// recorded account is whatever its requests show belongs together:
//
//   - a login answered 200: its email, the userId, clientId and token of
//     its answer;
//   - a PUT /users/:userId or PUT /clients/:clientId answered 200 or 400
//     (authenticated and permitted: the checks before the body's): its
//     credential and the id of its path; a PUT /users answered 200: the
//     email of its answer (a changed address is the same account's);
//   - a POST /clients answered 200: its credential and the id of the new
//     client;
//   - a credential in clear (a HAR's) is the same account wherever it is
//     sent; a masked one (the journal's "***") is the current account's:
//     the user of the path of a PUT /users, or else the account of the
//     latest login or request that named one; so is one in clear that the
//     recorded server accepted but no answer ties to a user (an api key
//     sent only to POST /apps): the account current when it was first used.
//
// Each recorded account is then one of the profile's pair: the one
// --account names (EMAIL=A, user:ID=B), else the one whose email or api key
// it shares, else A, then B, in the order the recording first uses them. A
// third account has no place: its requests are skipped, saying so.

// identities are the recording's identifiers (email:, user:, client:,
// key:, token:) joined into accounts.
type identities struct {
	parent map[string]string
	first  map[string]int // the first call that named each identifier
	authed map[string]bool
}

func newIdentities() *identities {
	return &identities{parent: map[string]string{}, first: map[string]int{}, authed: map[string]bool{}}
}

func (id *identities) add(n string, at int) {
	if _, ok := id.parent[n]; !ok {
		id.parent[n], id.first[n] = n, at
	}
}

func (id *identities) find(n string) string {
	for id.parent[n] != n {
		id.parent[n] = id.parent[id.parent[n]]
		n = id.parent[n]
	}
	return n
}

// union joins two identifiers; the root is the one first named.
func (id *identities) union(a, b string, at int) {
	id.add(a, at)
	id.add(b, at)
	ra, rb := id.find(a), id.find(b)
	if ra == rb {
		return
	}
	if id.first[rb] < id.first[ra] {
		ra, rb = rb, ra
	}
	id.parent[rb] = ra
}

// members are the identifiers of each account, by root.
func (id *identities) members() map[string][]string {
	out := map[string][]string{}
	for n := range id.parent {
		r := id.find(n)
		out[r] = append(out[r], n)
	}
	for _, ms := range out {
		sort.Slice(ms, func(i, j int) bool {
			return id.first[ms[i]] < id.first[ms[j]] || id.first[ms[i]] == id.first[ms[j]] && ms[i] < ms[j]
		})
	}
	return out
}

// plainID reports whether a recorded id is one the reference reads as an
// id (api.PathID).
func plainID(id string) bool {
	_, ok := api.PathID(id)
	return ok
}

func emailNode(e string) string { return "email:" + strings.ToLower(e) }
func secretNode(c credential) string {
	if c.scheme == "api-key" || c.op == "unspecified-place" && c.scheme == "session-query" {
		return "key:" + c.secret
	}
	return "token:" + c.secret
}

// accountOf is where the accounts stage puts its findings: the root of
// each call's account, and each recorded account's profile account.
type accountMap struct {
	ids     *identities
	actor   map[*call]string // the call's identifier (its account's, once found)
	madeBy  map[string]*call // client id -> the POST /clients that made it
	primary map[string]bool  // client ids a login answered
	// profile: recorded account root -> A or B; described: its words.
	profile   map[string]string
	described map[string]string
	unmapped  map[string]bool
}

// learn reads the identities of the recording's calls, in order.
func learn(calls []*call) *accountMap {
	m := &accountMap{ids: newIdentities(), actor: map[*call]string{}, madeBy: map[string]*call{}, primary: map[string]bool{}}
	ids := m.ids
	current := ""
	currentAt := map[string]string{} // a credential in clear -> the current account when it was first used
	for i, c := range calls {
		if c.skip != "" {
			continue
		}
		status := c.req.Status
		if c.op == explore.OpLogin {
			l := c.login
			if !l.hasEmail {
				m.actor[c] = current
				continue
			}
			n := emailNode(l.email)
			ids.add(n, i)
			if status == 200 && plainID(l.userID) {
				ids.union(n, "user:"+l.userID, i)
				if plainID(l.clientID) {
					ids.union(n, "client:"+l.clientID, i)
					m.primary[l.clientID] = true
				}
				if l.token != "" {
					ids.union(n, "token:"+l.token, i)
					ids.authed["token:"+l.token] = true
				}
				current = n
			}
			m.actor[c] = n
			continue
		}
		node := ""
		switch {
		case c.cred.scheme == "none":
		case c.cred.masked:
			node = current
		default:
			node = secretNode(c.cred)
			if _, seen := ids.parent[node]; !seen {
				currentAt[node] = current
			}
			ids.add(node, i)
			if status != 401 && status != 0 {
				ids.authed[node] = true
			}
		}
		permitted := status == 200 || status == 400
		switch {
		case c.op == explore.OpPutUser && plainID(c.pathID):
			user := "user:" + c.pathID
			ids.add(user, i)
			switch {
			case permitted && c.cred.masked:
				node = user // the path says whose the masked credential is
			case permitted && node != "":
				ids.union(node, user, i)
			case node == "":
				node = user
			}
			if status == 200 {
				if e := answerString(c.req, "email"); e != "" {
					ids.union(user, emailNode(e), i)
				}
			}
		case c.op == explore.OpPutClient && plainID(c.pathID):
			client := "client:" + c.pathID
			_, known := ids.parent[client]
			ids.add(client, i)
			switch {
			case permitted && c.cred.masked && known:
				node = client
			case permitted && node != "":
				ids.union(node, client, i)
			case node == "":
				node = client
			}
		case c.op == explore.OpPostClient && status == 200 && node != "":
			if id := answerID(c.req); id != "" {
				ids.union(node, "client:"+id, i)
				m.madeBy[id] = c
			}
		}
		m.actor[c] = node
		if node != "" && status != 401 && status != 0 && c.cred.scheme != "none" {
			current = node
		}
	}
	// A credential the recorded server accepted whose user no answer showed
	// (an api key sent to POST /apps) is the account's that was current when
	// it was first used, as a masked one is.
	hasUser := map[string]bool{}
	for n := range ids.parent {
		if strings.HasPrefix(n, "user:") {
			hasUser[ids.find(n)] = true
		}
	}
	for n, cur := range currentAt {
		if ids.authed[n] && !hasUser[ids.find(n)] && cur != "" {
			ids.union(cur, n, ids.first[n])
		}
	}
	return m
}

// answerString is a string field of a recorded answer.
func answerString(r *Request, field string) string {
	return gjson.GetBytes(r.Answer, field).String()
}

// answerID is the id of a recorded answer, as written ("" none).
func answerID(r *Request) string {
	id := gjson.GetBytes(r.Answer, "id").Raw
	if plainID(id) {
		return id
	}
	return ""
}

// assign maps each recorded account onto A or B of the pair: --account
// first, then an email or api key the profile's account shares, then the
// order of first use. accounts are the pair's, keys their api keys.
func (m *accountMap) assign(calls []*call, pair []explore.Account, keys map[string]string, given map[string]string) error {
	ids := m.ids
	members := ids.members()
	// An account: a user the recording shows, a credential it accepted.
	isAccount := func(root string) bool {
		for _, n := range members[root] {
			if strings.HasPrefix(n, "user:") || ids.authed[n] {
				return true
			}
		}
		return false
	}
	var order []string
	seen := map[string]bool{}
	for _, c := range calls {
		n, ok := m.actor[c]
		if !ok || n == "" {
			continue
		}
		r := ids.find(n)
		if !seen[r] && isAccount(r) {
			seen[r] = true
			order = append(order, r)
		}
	}
	m.profile, m.described, m.unmapped = map[string]string{}, map[string]string{}, map[string]bool{}
	taken := map[string]string{}
	put := func(root, name, why string) error {
		if other, ok := taken[name]; ok && other != root {
			return fmt.Errorf("two recorded accounts map onto account %s (%s, and %s)", name, m.describe(other, members), m.describe(root, members))
		}
		taken[name], m.profile[root] = root, name
		m.described[root] = m.describe(root, members) + " → account " + name + " (" + why + ")"
		return nil
	}
	for sel, name := range given {
		node := sel
		switch {
		case strings.Contains(sel, "@"):
			node = emailNode(sel)
		case plainID(sel):
			node = "user:" + sel
		}
		if _, ok := ids.parent[node]; !ok {
			return fmt.Errorf("--account %s=%s: the recording names no %s", sel, name, sel)
		}
		if err := put(ids.find(node), name, "--account"); err != nil {
			return err
		}
	}
	for _, root := range order {
		if _, done := m.profile[root]; done {
			continue
		}
		for _, a := range pair {
			for _, n := range members[root] {
				if n == emailNode(a.Email) || n == "key:"+keys[a.Name] {
					if _, ok := taken[a.Name]; !ok {
						if err := put(root, a.Name, "the profile's account of that email or api key"); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	for _, root := range order {
		if _, done := m.profile[root]; done {
			continue
		}
		placed := false
		for _, a := range pair {
			if _, ok := taken[a.Name]; !ok {
				placed = true
				if err := put(root, a.Name, "in the order the recording first uses its accounts"); err != nil {
					return err
				}
				break
			}
		}
		if !placed {
			m.unmapped[root] = true
			m.described[root] = m.describe(root, members) + ": no account left (the replay maps two accounts onto A and B)"
		}
	}
	return nil
}

// describe names a recorded account by what identifies it, secrets aside:
// its emails and user ids.
func (m *accountMap) describe(root string, members map[string][]string) string {
	var words []string
	for _, n := range members[root] {
		switch {
		case strings.HasPrefix(n, "email:"):
			words = append(words, strings.TrimPrefix(n, "email:"))
		case strings.HasPrefix(n, "user:"):
			words = append(words, "user "+strings.TrimPrefix(n, "user:"))
		}
	}
	if len(words) == 0 {
		return "the recorded account of a credential (masked here)"
	}
	return "the recorded account " + strings.Join(words, ", ")
}

// of is the profile account of a recorded identifier ("" none) and, when
// there is none, why.
func (m *accountMap) of(node string) (string, string) {
	if node == "" {
		return "", "its account cannot be known: a masked credential before any login or request that names its user"
	}
	if _, ok := m.ids.parent[node]; !ok {
		return "", "its account cannot be known"
	}
	r := m.ids.find(node)
	if name, ok := m.profile[r]; ok {
		return name, ""
	}
	if m.unmapped[r] {
		return "", "a third account of the recording (" + m.describe(r, m.ids.members()) + "): the replay maps two accounts onto A and B"
	}
	return "", "its account cannot be known: a credential no request of the recording shows accepted"
}

// original is the first email a recorded account was seen with.
func (m *accountMap) original(root string) string {
	for _, n := range m.ids.members()[root] {
		if strings.HasPrefix(n, "email:") {
			return strings.TrimPrefix(n, "email:")
		}
	}
	return ""
}
