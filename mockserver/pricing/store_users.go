package pricing

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Users: the user object, its input, and PUT and POST /users (2.1, 4.1).

// User is a user account. The password is not part of it: the store keeps
// only a salted HMAC of it (secret.go), out of reach of every reader.
type User struct {
	ID                  int64
	Created             time.Time
	Email               string
	PasswordLastChanged time.Time
	UserDetails
	// ClientIDs are the clients the user is a member of, in the order joined.
	ClientIDs []int64
	// PrimaryClientID is the client POST /apps attaches to and a session's
	// clientId; 0 when the user has no client.
	PrimaryClientID int64
}

// UserDetails are what a user holds beside its id, dates, email,
// credentials and clients: the names, the email preferences, the phone and
// the timezone. The store's User and the state's StateUser both embed them,
// so that a field of the user is declared, copied and counted here alone
// (the JSON names are the state document's).
type UserDetails struct {
	FirstName           string  `json:"firstName"`
	LastName            string  `json:"lastName"`
	SubscribeWelcome    bool    `json:"subscribeWelcome"`
	SubscribeBlog       bool    `json:"subscribeBlog"`
	SubscribeHowto      bool    `json:"subscribeHowto"`
	SubscribeOnboarding bool    `json:"subscribeOnboarding"`
	PhoneCountryID      int64   `json:"phoneCountryId"`
	PhoneNumber         string  `json:"phoneNumber"`
	PhoneExtension      *string `json:"phoneExtension"`
	Timezone            string  `json:"timezone"`
}

// clone is a copy that shares no pointer with d.
func (d UserDetails) clone() UserDetails {
	d.PhoneExtension = clonePtr(d.PhoneExtension)
	return d
}

// bytes is the estimated size of the details' strings (limits.go).
func (d *UserDetails) bytes() int64 {
	return strBytes(d.FirstName, d.LastName, d.PhoneNumber, d.Timezone) + ptrBytes(d.PhoneExtension)
}

// UserInput is a validated body of PUT /users/:userId or POST /users.
type UserInput struct {
	Email, FirstName, LastName, Timezone                                 string
	SubscribeWelcome, SubscribeBlog, SubscribeHowto, SubscribeOnboarding bool
	// Password nil keeps the current password (required by CreateUser).
	Password *string
	// PhoneCountryID 0 and PhoneNumber nil keep the stored value (both are
	// required by CreateUser).
	PhoneCountryID int64
	PhoneNumber    *string
	// SetPhoneExtension false keeps the stored extension; true replaces it
	// with PhoneExtension, nil clearing it.
	SetPhoneExtension bool
	PhoneExtension    *string
	// Client, when set, is created with the user as a member.
	Client *ClientInput
}

type userRecord struct {
	User
	salt, hash []byte
}

func (r *userRecord) copy() User {
	u := r.User
	u.ClientIDs = slices.Clone(u.ClientIDs)
	u.UserDetails = u.UserDetails.clone()
	return u
}

// User returns a user by id.
func (s *Store) User(id int64) (User, error) {
	return record[*userRecord](s, func(s *Store) map[int64]*userRecord { return s.users }, "user", id)
}

// EmailTaken reports whether a user other than exceptUserID has the email
// (case-insensitive). exceptUserID 0 checks every user.
func (s *Store) EmailTaken(email string, exceptUserID int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.emailTakenLocked(email, exceptUserID)
}

func (s *Store) emailTakenLocked(email string, exceptUserID int64) bool {
	id, ok := s.emails[strings.ToLower(email)]
	return ok && id != exceptUserID
}

// checkUserLocked re-checks, under the write lock, what validation checked
// before it: the catalogues never change, but another request may have taken
// the email in between.
func (s *Store) checkUserLocked(in UserInput, userID int64) error {
	if s.emailTakenLocked(in.Email, userID) {
		return ErrEmailTaken
	}
	if in.PhoneCountryID != 0 {
		if _, ok := s.phoneCountries[in.PhoneCountryID]; !ok {
			return fmt.Errorf("phone country %d: %w", in.PhoneCountryID, ErrUnknownReference)
		}
	}
	if in.Client != nil {
		return s.checkClientLocked(*in.Client)
	}
	return nil
}

func userApp(in *ClientInput) bool { return in != nil && in.App != nil }

// UpdateUser applies a PUT /users/:userId body. With in.Client it also
// creates that client (and its app) with the user as a member; the user's
// primary client changes only if it had none. All of it happens or none.
func (s *Store) UpdateUser(id int64, in UserInput) (User, error) {
	if s.dev.UpdateNotStored {
		return s.updatedUser(id, in)
	}
	g := s.generate(in.Password, userApp(in.Client))
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.users[id]
	if !ok {
		return User{}, fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	if err := s.checkUserLocked(in, id); err != nil {
		return User{}, err
	}
	updated := *r
	updated.applyInput(in)
	if g.hasPW {
		updated.salt, updated.hash = g.salt, g.hash
		if !s.dev.PasswordChangeUndated {
			updated.PasswordLastChanged = g.now
		}
	}
	if err := s.makeRoom(updated.bytes()-r.bytes(), 0, in.Client); err != nil {
		return User{}, err
	}
	s.changedLocked()
	if !s.dev.LoginEmailStale {
		if !s.dev.OldEmailKept {
			delete(s.emails, strings.ToLower(r.Email))
		}
		s.emails[strings.ToLower(in.Email)] = id
	}
	kept := r.User
	*r = updated
	s.markUser(id)
	if in.Client != nil {
		s.addClientLocked(r, *in.Client, g)
	}
	answer := r.copy()
	if s.dev.UserProfileNotStored {
		r.FirstName, r.LastName, r.Timezone = kept.FirstName, kept.LastName, kept.Timezone
		r.SubscribeWelcome, r.SubscribeBlog = kept.SubscribeWelcome, kept.SubscribeBlog
		r.SubscribeHowto, r.SubscribeOnboarding = kept.SubscribeHowto, kept.SubscribeOnboarding
	}
	if s.dev.PermissionCheckedAfterWrite && s.refused[fmt.Sprint("user ", id)] {
		return User{}, ErrRefusedAfterWrite
	}
	return answer, nil
}

// updatedUser is the user as UpdateUser would leave it, without the update
// being stored (Deviations.UpdateNotStored).
func (s *Store) updatedUser(id int64, in UserInput) (User, error) {
	u, err := s.User(id)
	if err != nil {
		return User{}, err
	}
	r := userRecord{User: u}
	r.applyInput(in)
	return r.User, nil
}

func (r *userRecord) applyInput(in UserInput) {
	r.Email = in.Email
	r.FirstName, r.LastName, r.Timezone = in.FirstName, in.LastName, in.Timezone
	r.SubscribeWelcome, r.SubscribeBlog = in.SubscribeWelcome, in.SubscribeBlog
	r.SubscribeHowto, r.SubscribeOnboarding = in.SubscribeHowto, in.SubscribeOnboarding
	if in.PhoneCountryID != 0 {
		r.PhoneCountryID = in.PhoneCountryID
	}
	if in.PhoneNumber != nil {
		r.PhoneNumber = *in.PhoneNumber
	}
	if in.SetPhoneExtension {
		r.PhoneExtension = clonePtr(in.PhoneExtension)
	}
}

// CreateUser applies a POST /users body: the user, and with in.Client its
// client and that client's app, all or nothing. Password, PhoneCountryID and
// PhoneNumber are required.
func (s *Store) CreateUser(in UserInput) (User, error) {
	if in.Password == nil || in.PhoneCountryID == 0 || in.PhoneNumber == nil {
		return User{}, fmt.Errorf("password, phone country and phone number are required: %w", ErrIncompleteInput)
	}
	g := s.generate(in.Password, userApp(in.Client))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkUserLocked(in, 0); err != nil {
		return User{}, err
	}
	r := &userRecord{
		User: User{ID: s.nextUser, Created: g.now, PasswordLastChanged: g.now},
		salt: g.salt, hash: g.hash,
	}
	r.applyInput(in)
	if err := s.makeRoom(r.bytes(), 1, in.Client); err != nil {
		return User{}, err
	}
	s.changedLocked()
	s.nextUser++
	s.users[r.ID] = r
	s.markUser(r.ID)
	s.emails[strings.ToLower(r.Email)] = r.ID
	if in.Client != nil {
		s.addClientLocked(r, *in.Client, g)
	}
	return r.copy(), nil
}
