package pricing

import (
	"crypto/subtle"
	"fmt"
	"strings"
	"time"
)

// Sessions and credentials: passwords, API keys and session tokens, and
// POST /sessions (2.4, 5).

// Session is the answer of POST /sessions. Token is filled only in the value
// CreateSession returns: the store keeps a hash of it.
type Session struct {
	ID            int64
	Created       time.Time
	CreatorUserID int64
	UserID        int64
	ClientID      int64 // 0: the user had no client
	Token         string
}

// saltSize is the length of a password's salt, in bytes.
const saltSize = 16

// hashPassword returns a fresh salt and the password's HMAC with it.
func (s *Store) hashPassword(password string) (salt, hash []byte) {
	salt = make([]byte, saltSize)
	s.src.read(salt)
	h := s.secret.passwordHash(salt, password)
	return salt, h[:]
}

// dummySalt makes a failed lookup by email cost one hash, like a found one.
var dummySalt = make([]byte, saltSize)

// Authenticate returns the user whose email (case-insensitive) and password
// match, or ErrBadCredentials.
func (s *Store) Authenticate(email, password string) (User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[s.emails[strings.ToLower(email)]]
	if !ok {
		s.secret.passwordHash(dummySalt, password)
		return User{}, ErrBadCredentials
	}
	if h := s.secret.passwordHash(r.salt, password); subtle.ConstantTimeCompare(h[:], r.hash) != 1 && !s.dev.AnyPassword {
		return User{}, ErrBadCredentials
	}
	return r.copy(), nil
}

// CreateSession opens a session for a user. The returned Session is the only
// place its token appears. When the store holds Limits.Sessions sessions,
// the oldest one is dropped to make room.
func (s *Store) CreateSession(userID int64) (Session, error) {
	token := s.src.hex(32)
	key := s.secret.tokenHash(token)
	created := s.src.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.users[userID]
	if !ok {
		return Session{}, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	if s.lim.Sessions > 0 && len(s.sessions) >= s.lim.Sessions {
		s.dropOldestSessionLocked()
	} else if err := s.charge(sessionBytes); err != nil {
		return Session{}, err
	}
	sess := Session{
		ID:            s.nextSession,
		Created:       created,
		CreatorUserID: userID,
		UserID:        userID,
		ClientID:      r.PrimaryClientID,
	}
	s.nextSession++
	s.lastSessionUser = userID
	s.sessions[key] = sess
	s.sessionOrder = append(s.sessionOrder, key)
	s.markSession(key)
	s.changedLocked()
	sess.Token = token
	return sess, nil
}

// dropOldestSessionLocked forgets the oldest session; its token no longer
// authenticates. The caller holds the write lock.
func (s *Store) dropOldestSessionLocked() {
	for s.sessionHead < len(s.sessionOrder) {
		key := s.sessionOrder[s.sessionHead]
		s.sessionOrder[s.sessionHead] = [32]byte{}
		s.sessionHead++
		if _, ok := s.sessions[key]; ok {
			delete(s.sessions, key)
			s.markSession(key)
			break
		}
	}
	// The dropped keys are compacted away once they are half the queue, so
	// that the queue stays within twice the sessions it orders.
	if s.sessionHead > len(s.sessionOrder)/2 {
		s.sessionOrder = append([][32]byte(nil), s.sessionOrder[s.sessionHead:]...)
		s.sessionHead = 0
	}
}

// UserIDForAPIKey returns the user an API key belongs to.
func (s *Store) UserIDForAPIKey(key string) (int64, bool) {
	if s.dev.NobodyAPIKey != "" && key == s.dev.NobodyAPIKey {
		return 0, true
	}
	h := s.secret.apiKeyHash(key)
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.apiKeys[h]
	return id, ok
}

// UserIDForToken returns the user of a session token. Tokens do not expire;
// a session is forgotten only when Limits.Sessions newer ones push it out.
func (s *Store) UserIDForToken(token string) (int64, bool) {
	h := s.secret.tokenHash(token)
	s.mu.RLock()
	defer s.mu.RUnlock()
	sess, ok := s.sessions[h]
	if ok && s.dev.LastSessionWins {
		return s.lastSessionUser, true
	}
	return sess.UserID, ok
}
