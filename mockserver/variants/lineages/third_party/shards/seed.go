package shards

import (
	"fmt"
	"time"
)

// seed creates Pairs pairs of accounts. Pair i (0-based) has user and
// client ids 2i+1 (account A) and 2i+2 (account B).
func (s *Server) seed(pairs int) error {
	now := time.Now().UTC()
	s.accounts = make([][2]Account, 0, pairs)
	for i := 0; i < pairs; i++ {
		var pair [2]Account
		for j, role := range []string{"a", "b"} {
			acc := Account{
				Email:    fmt.Sprintf("%s%d.%s@example.test", role, i+1, randHex(4)),
				Password: "pw-" + randHex(8),
				APIKey:   "ak_" + randHex(16),
			}
			s.seedAccount(acc, i, j, now)
			pair[j] = acc
		}
		s.accounts = append(s.accounts, pair)
	}
	return nil
}

func (s *Server) seedAccount(acc Account, pair, role int, now time.Time) {
	first := []string{"Alice", "Bob"}[role]
	letter := []string{"A", "B"}[role]
	u := &userRec{id: s.st.userSeq.Add(1), apiKey: acc.APIKey}
	salt, hash := hashPassword(acc.Password)
	u.d = userData{
		created: now, pwChanged: now, email: acc.Email,
		first: first, last: fmt.Sprintf("Pair%d", pair+1),
		timezone: "Europe/London", salt: salt, hash: hash,
		phoneCountry: 1, phoneNumber: fmt.Sprintf("7700900%03d", (2*pair+role)%1000),
	}
	c := &clientRec{
		id: s.st.clientSeq.Add(1), created: now,
		members: map[int64]bool{u.id: true},
		d: clientData{
			name:  fmt.Sprintf("Client %s%d", letter, pair+1),
			addr1: fmt.Sprintf("%d Main Street", pair+1), city: "London",
			postcode: "N1 1AA", country: "GB", currency: int64(1 + role),
		},
	}
	u.clients = []int64{c.id}
	s.st.putUser(u)
	s.st.putClient(c)
	s.st.byEmail[emailKey(acc.Email)] = u.id
	s.st.putKey(acc.APIKey, u.id)
}
