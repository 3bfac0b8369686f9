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
	l := &learner{
		accountMap: &accountMap{ids: newIdentities(), actor: map[*call]string{}, madeBy: map[string]*call{}, primary: map[string]bool{}},
		currentAt:  map[string]string{},
	}
	for i, c := range calls {
		switch {
		case c.skip != "":
		case c.op == explore.OpLogin:
			l.login(c, i)
		default:
			l.request(c, i)
		}
	}
	l.joinFirstUse()
	return l.accountMap
}

// learner is learn's state as it reads the calls in order.
type learner struct {
	*accountMap
	// current is the account of the latest login or request that named
	// one; currentAt, for a credential in clear, the current account when
	// it was first used.
	current   string
	currentAt map[string]string
}

// login joins a login's email and, when it was answered 200, the user,
// client and token of its answer.
func (l *learner) login(c *call, i int) {
	ids, lg := l.ids, c.login
	if !lg.hasEmail {
		l.actor[c] = l.current
		return
	}
	n := emailNode(lg.email)
	ids.add(n, i)
	if c.req.Status == 200 && plainID(lg.userID) {
		ids.union(n, "user:"+lg.userID, i)
		if plainID(lg.clientID) {
			ids.union(n, "client:"+lg.clientID, i)
			l.primary[lg.clientID] = true
		}
		if lg.token != "" {
			ids.union(n, "token:"+lg.token, i)
			ids.authed["token:"+lg.token] = true
		}
		l.current = n
	}
	l.actor[c] = n
}

// request joins the credential of any other call with what its path or
// its answer names.
func (l *learner) request(c *call, i int) {
	status := c.req.Status
	node := l.credential(c, i)
	permitted := status == 200 || status == 400
	switch {
	case c.op == explore.OpPutUser && plainID(c.pathID):
		node = l.putUser(c, i, node, permitted)
	case c.op == explore.OpPutClient && plainID(c.pathID):
		node = l.putClient(c, i, node, permitted)
	case c.op == explore.OpPostClient && status == 200 && node != "":
		if id := answerID(c.req); id != "" {
			l.ids.union(node, "client:"+id, i)
			l.madeBy[id] = c
		}
	}
	l.actor[c] = node
	if node != "" && status != 401 && status != 0 && c.cred.scheme != "none" {
		l.current = node
	}
}

// credential is the identifier of a call's credential: none, the current
// account's for a masked one, else the credential itself.
func (l *learner) credential(c *call, i int) string {
	ids := l.ids
	switch {
	case c.cred.scheme == "none":
		return ""
	case c.cred.masked:
		return l.current
	}
	node := secretNode(c.cred)
	if _, seen := ids.parent[node]; !seen {
		l.currentAt[node] = l.current
	}
	ids.add(node, i)
	if c.req.Status != 401 && c.req.Status != 0 {
		ids.authed[node] = true
	}
	return node
}

// putUser joins a PUT /users/:userId's credential (node) with the user of
// its path, and a 200's email with both; it returns the call's identifier.
func (l *learner) putUser(c *call, i int, node string, permitted bool) string {
	ids := l.ids
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
	if c.req.Status == 200 {
		if e := answerString(c.req, "email"); e != "" {
			ids.union(user, emailNode(e), i)
		}
	}
	return node
}

// putClient joins a PUT /clients/:clientId's credential (node) with the
// client of its path; it returns the call's identifier.
func (l *learner) putClient(c *call, i int, node string, permitted bool) string {
	ids := l.ids
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
	return node
}

// joinFirstUse: a credential the recorded server accepted whose user no
// answer showed (an api key sent to POST /apps) is the account's that was
// current when it was first used, as a masked one is.
func (l *learner) joinFirstUse() {
	ids := l.ids
	hasUser := map[string]bool{}
	for n := range ids.parent {
		if strings.HasPrefix(n, "user:") {
			hasUser[ids.find(n)] = true
		}
	}
	for n, cur := range l.currentAt {
		if ids.authed[n] && !hasUser[ids.find(n)] && cur != "" {
			ids.union(cur, n, ids.first[n])
		}
	}
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
	a := &assignment{accountMap: m, members: m.ids.members(), taken: map[string]string{}}
	m.profile, m.described, m.unmapped = map[string]string{}, map[string]string{}, map[string]bool{}
	if err := a.given(given); err != nil {
		return err
	}
	order := a.inOrder(calls)
	if err := a.byProfile(order, pair, keys); err != nil {
		return err
	}
	return a.byOrder(order, pair)
}

// assignment is assign's state: the recorded accounts' identifiers, and
// the recorded account each profile account is taken by.
type assignment struct {
	*accountMap
	members map[string][]string
	taken   map[string]string
}

// inOrder are the recorded accounts (a user the recording shows, a
// credential it accepted) in the order the recording first uses them.
func (a *assignment) inOrder(calls []*call) []string {
	ids := a.ids
	isAccount := func(root string) bool {
		for _, n := range a.members[root] {
			if strings.HasPrefix(n, "user:") || ids.authed[n] {
				return true
			}
		}
		return false
	}
	var order []string
	seen := map[string]bool{}
	for _, c := range calls {
		n, ok := a.actor[c]
		if !ok || n == "" {
			continue
		}
		r := ids.find(n)
		if !seen[r] && isAccount(r) {
			seen[r] = true
			order = append(order, r)
		}
	}
	return order
}

// put maps the recorded account root onto the profile's account name,
// for why; a profile account two recorded accounts map onto is an error.
func (a *assignment) put(root, name, why string) error {
	if other, ok := a.taken[name]; ok && other != root {
		return fmt.Errorf("two recorded accounts map onto account %s (%s, and %s)", name, a.describe(other, a.members), a.describe(root, a.members))
	}
	a.taken[name], a.profile[root] = root, name
	a.described[root] = a.describe(root, a.members) + " → account " + name + " (" + why + ")"
	return nil
}

// given maps the accounts --account names (EMAIL=A, user:ID=B).
func (a *assignment) given(given map[string]string) error {
	for sel, name := range given {
		node := sel
		switch {
		case strings.Contains(sel, "@"):
			node = emailNode(sel)
		case plainID(sel):
			node = "user:" + sel
		}
		if _, ok := a.ids.parent[node]; !ok {
			return fmt.Errorf("--account %s=%s: the recording names no %s", sel, name, sel)
		}
		if err := a.put(a.ids.find(node), name, "--account"); err != nil {
			return err
		}
	}
	return nil
}

// byProfile maps each account not yet mapped onto the profile's account
// whose email or api key it shares.
func (a *assignment) byProfile(order []string, pair []explore.Account, keys map[string]string) error {
	for _, root := range order {
		if _, done := a.profile[root]; done {
			continue
		}
		for _, acct := range pair {
			for _, n := range a.members[root] {
				if n != emailNode(acct.Email) && n != "key:"+keys[acct.Name] {
					continue
				}
				if _, ok := a.taken[acct.Name]; !ok {
					if err := a.put(root, acct.Name, "the profile's account of that email or api key"); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// byOrder maps the accounts left onto the profile's accounts left, in
// order; one with none left is unmapped.
func (a *assignment) byOrder(order []string, pair []explore.Account) error {
	for _, root := range order {
		if _, done := a.profile[root]; done {
			continue
		}
		placed := false
		for _, acct := range pair {
			if _, ok := a.taken[acct.Name]; !ok {
				placed = true
				if err := a.put(root, acct.Name, "in the order the recording first uses its accounts"); err != nil {
					return err
				}
				break
			}
		}
		if !placed {
			a.unmapped[root] = true
			a.described[root] = a.describe(root, a.members) + ": no account left (the replay maps two accounts onto A and B)"
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
