package steps

import (
	"context"
	"strings"
)

// ResolveName replaces the placeholders of a scenario name that name the
// target's accounts and ids (an outline row such as
// "PUT /users/{{A.userId}} accepts the api-key header") with their values
// on pair pairN of the pool, the one the scenario ran on (0: pair 1), so
// that reports name what was tested. Secrets are shown as ***; a
// placeholder that has no value yet (no login happened) is kept.
func (s *Suite) ResolveName(name string, pairN int) string {
	if !strings.Contains(name, "{{") {
		return name
	}
	st := s.newState(nil)
	pr := s.pool.pairs[0]
	if pairN > 0 && pairN <= len(s.pool.pairs) {
		pr = s.pool.pairs[pairN-1]
	}
	return placeholder.ReplaceAllStringFunc(name, func(m string) string {
		key := placeholder.FindStringSubmatch(m)[1]
		if acct, field, ok := strings.Cut(key, "."); ok && (acct == "A" || acct == "B") {
			switch field {
			case "password", "apiKey":
				return "***"
			case "email":
				return pr.accounts[accountIndex(acct)].email
			case "userId", "clientId":
				ids, ok := pr.learnedIDs(accountIndex(acct))
				if !ok {
					return m
				}
				if field == "userId" {
					return ids.userID
				}
				return ids.clientID
			}
		}
		if strings.HasPrefix(key, "gen:") {
			return m // a new value on every use: the name keeps the recipe
		}
		v, err := st.lookup(context.Background(), key)
		if err != nil {
			return m
		}
		return v.plain()
	})
}
