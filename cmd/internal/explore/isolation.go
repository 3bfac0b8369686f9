package explore

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
)

// Isolation and secrecy: whatever its status, an answer to one account
// carries nothing only another account wrote (a name, an email of the
// run's own words that the other account's accepted request stored), and
// no secret of another account (its api key, a session token of its) in
// its body or its headers: the spec lets a caller neither view another's
// resources (5) nor see a password (2.1, checked by leak). What the
// request itself carried is no leak: an error may quote it.

// uniqueWord finds the candidates of the run's own words in a value:
// every value the generator makes up carries one (contract-abcd12), which
// the generator minted (knowledge.minted).
var uniqueWord = regexp.MustCompile(`contract[-.]([a-z]{4}[0-9a-z]+)`)

// wrote records the run's words an accepted request of an account carried:
// from now on they are that account's.
func (j judgement) wrote(st Step, sent string, status int) {
	if status != http.StatusOK || st.Op == OpLogin || st.Op == OpPlatforms {
		return
	}
	owner := j.owner(st.Actor)
	k := j.k
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, m := range uniqueWord.FindAllStringSubmatch(sent, -1) {
		if _, taken := k.written[m[1]]; !taken && k.minted[m[1]] {
			k.written[m[1]] = owner
		}
	}
}

// owner names an account of the run: its pair and its letter.
func (j judgement) owner(actor string) string { return j.label + actor }

// carries reports whether a request carried a text: in its body, its
// path or query, or a header (a credential of another account a step sent
// on purpose, which an error may quote).
func (r wireRequest) carries(s string) bool {
	if strings.Contains(r.body, s) || strings.Contains(r.url, s) {
		return true
	}
	if u, err := url.QueryUnescape(r.url); err == nil && strings.Contains(u, s) {
		return true
	}
	for _, vs := range r.header {
		for _, v := range vs {
			if strings.Contains(v, s) {
				return true
			}
		}
	}
	return false
}

// isolation reports an answer to st's account that carries another
// account's word or secret.
func (j judgement) isolation(st Step, req wireRequest, got wireAnswer) *divergence {
	if got.status < 0 {
		return nil
	}
	answer := answerText(got)
	carried := req.carries
	otherName := j.wd.other(st.Actor)
	words, tokens, named := j.learnedIn(st, answer, otherName, carried)
	other := j.wd.acct[otherName]
	if key := other.apiKey; len(key) >= 8 && strings.Contains(answer, key) && !carried(key) {
		tokens = append([]string{"the api key of account " + j.label + other.name}, tokens...)
		named = Of(AccountVar(otherName, "apiKey"))
	}
	if email := j.s.user(otherName).Email; len(email) >= 6 && !carried(email) && strings.Contains(strings.ToLower(answer), strings.ToLower(email)) {
		// The other account's email, whatever the run made of it: whose
		// record a 403 refuses is no business of the caller's.
		words = append(words, foundWord{email, fmt.Sprintf("the email of account %s%s", j.label, other.name)})
	}
	if got.status >= 400 {
		words = append(words, j.idsInErrors(got, other, carried)...)
	}
	slices.SortFunc(words, func(a, b foundWord) int { return strings.Compare(a.String(), b.String()) })
	words = slices.Compact(words)
	switch {
	case len(tokens) > 0:
		return diverged(policy.CheckIsolation, "secret of another account",
			fmt.Sprintf("answered %d to account %s with %s (5: a caller may not view another's resources)", got.status, st.Actor, strings.Join(tokens, ", ")),
			expectValue(expectNoText, "", named))
	case len(words) > 0:
		first := Lit(words[0].text)
		switch words[0].text {
		case other.userID:
			first = Of(AccountVar(otherName, "userId"))
		case other.clientID:
			first = Of(AccountVar(otherName, "clientId"))
		}
		said := make([]string, len(words))
		for i, w := range words {
			said[i] = w.String()
		}
		return diverged(policy.CheckIsolation, "data of another account",
			fmt.Sprintf("answered %d to account %s with %s, which only the other account wrote or holds (5: a caller may not view another's resources)", got.status, st.Actor, strings.Join(said, ", ")),
			expectValue(expectNoText, "", first))
	}
	return nil
}

// answerText is an answer's body and its headers, each on a line of its
// own, as one text.
func answerText(got wireAnswer) string {
	var text strings.Builder
	text.Write(got.body)
	for name, vs := range got.header {
		for _, v := range vs {
			text.WriteString("\n" + name + ": " + v)
		}
	}
	return text.String()
}

// learnedIn finds in an answer to st's account what the run learned is
// another account's, and the request did not carry: the run's words it
// wrote, and its session tokens.
func (j judgement) learnedIn(st Step, answer, otherName string, carried func(string) bool) (words []foundWord, tokens []string, named Text) {
	me := j.owner(st.Actor)
	k := j.k
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, m := range uniqueWord.FindAllStringSubmatch(answer, -1) {
		if owner, ok := k.written[m[1]]; ok && owner != me && !carried(m[1]) {
			words = append(words, foundWord{m[0], fmt.Sprintf("written by account %s", owner)})
		}
	}
	// The secrets found, and how the reproducer names the first: the
	// other account's api key by its placeholder, a session token by the
	// reproducer's variable of the other account's (an older one of its
	// is no variable: the reproducer looks for its newest).
	for tok, owner := range k.tokens {
		if owner != me && len(tok) >= 8 && strings.Contains(answer, tok) && !carried(tok) {
			tokens = append(tokens, "a session token of account "+owner)
			switch {
			case named == (Text{}) && owner == j.owner(otherName) && st.OtherToken.Set():
				named = Of(st.OtherToken)
			case named == (Text{}):
				named = Lit(tok) // another pair's: the reproducer has no name for it
			}
		}
	}
	return words, tokens, named
}

// idsInErrors finds the other account's ids in an error's message: which
// user holds an email, whose record a 403 refuses.
func (j judgement) idsInErrors(got wireAnswer, other *accountState, carried func(string) bool) []foundWord {
	var words []foundWord
	for _, m := range gjson.GetBytes(got.body, "#.message").Array() {
		for _, id := range []string{other.userID, other.clientID} {
			if len(id) >= 3 && !carried(id) && regexp.MustCompile(`(^|\D)`+regexp.QuoteMeta(id)+`(\D|$)`).MatchString(m.String()) {
				words = append(words, foundWord{id, fmt.Sprintf("an id of account %s%s", j.label, other.name)})
			}
		}
	}
	return words
}

// foundWord is a text of another account's that an answer carried, and whose
// it is.
type foundWord struct{ text, whose string }

func (f foundWord) String() string { return f.text + " (" + f.whose + ")" }
