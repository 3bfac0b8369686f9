package documents

import (
	"fmt"
)

const seedDate = "2024-01-15T09:30:00.000Z"

// seed makes the pairs. Every field of 2.1 and 2.2 is set, so that a client
// can read back every field without writing it first.
func (s *Server) seed(pairs int) {
	s.accounts = make([][2]Account, pairs)
	for i := range pairs {
		for side, letter := range []string{"a", "b"} {
			line2 := fmt.Sprintf("Floor %d", side+1)
			vat := fmt.Sprintf("GB%09d", 100000000+i*2+side)
			c := clientDoc{
				CreatedDate:     seedDate,
				Name:            fmt.Sprintf("Pair %d Publisher %s", i, letter),
				AddressLine1:    fmt.Sprintf("%d High Street", 10+i),
				AddressLine2:    &line2,
				AddressCity:     "London",
				AddressPostcode: "EC1A 1BB",
				AddressCountry:  "United Kingdom",
				VAT:             &vat,
				CurrencyID:      3,
			}
			cid := s.clients.insert(func(id int64) []byte {
				c.ID = id
				return encode(c)
			})
			app := &appInput{name: fmt.Sprintf("Pair %d App %s", i, letter), platformID: int64(side + 1), planID: planLite}
			a := s.storeApp(cid, app, false)
			c.AppIDs = []int64{a.ID}
			s.clients.get(cid).data = encode(c)

			acct := Account{
				Email:    fmt.Sprintf("pair%d-%s@example.com", i, letter),
				Password: "pw-" + randomHex(8),
				APIKey:   randomHex(16),
			}
			ext := fmt.Sprint(100 + side)
			u := userDoc{
				Created:             seedDate,
				Email:               acct.Email,
				FirstName:           []string{"Alice", "Bob"}[side],
				LastName:            fmt.Sprintf("Pair%d", i),
				SubscribeWelcome:    true,
				SubscribeBlog:       side == 0,
				SubscribeHowto:      side == 1,
				SubscribeOnboarding: false,
				PhoneCountryID:      1,
				PhoneNumber:         fmt.Sprintf("7700 9%05d", i*2+side),
				PhoneExtension:      &ext,
				Timezone:            "Europe/London",
				APIKey:              acct.APIKey,
				ClientIDs:           []int64{cid},
			}
			u.PasswordSalt = randomHex(16)
			u.PasswordHash = hashPassword(u.PasswordSalt, acct.Password)
			u.PasswordLastChanged = seedDate
			uid := s.users.insert(func(id int64) []byte {
				u.ID = id
				return encode(u)
			})
			s.emails[emailKey(acct.Email)] = uid
			s.apiKeys[acct.APIKey] = uid
			s.accounts[i][side] = acct
		}
	}
}
