package documents

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
)

// principal is the authenticated caller. sessionID is 0 for an api key.
type principal struct {
	userID    int64
	sessionID int64
}

// authenticate accepts the three credential places of section 5. Every
// credential present must be valid and all must name the same user: a request
// carrying one good and one bad credential is not "authenticated correctly".
// An empty value counts as absent.
func (s *Server) authenticate(r *http.Request) (principal, bool) {
	var users []int64
	var sessionID int64
	for _, v := range r.Header.Values("Authorization") {
		if strings.TrimSpace(v) == "" {
			continue
		}
		key, ok := parseAPIKey(v)
		if !ok {
			return principal{}, false
		}
		uid, ok := s.lookupAPIKey(key)
		if !ok && s.is(fSessionTokenAsAPIKey) {
			uid, _, ok = s.lookupToken(key)
		}
		if !ok {
			return principal{}, false
		}
		users = append(users, uid)
	}
	if len(users) > 0 && s.is(fAPIKeyShadowsBadToken) {
		return principal{userID: users[0]}, true
	}
	tokens := r.Header.Values("Session-Token")
	if !s.is(fSessionTokenQueryIgnored) {
		tokens = append(tokens, r.URL.Query()["sessionToken"]...)
	}
	for _, t := range tokens {
		if strings.TrimSpace(t) == "" {
			continue
		}
		uid, sid, ok := s.lookupToken(strings.TrimSpace(t))
		if !ok {
			return principal{}, false
		}
		users = append(users, uid)
		sessionID = sid
	}
	if len(users) == 0 {
		return principal{}, false
	}
	for _, u := range users[1:] {
		if u != users[0] {
			return principal{}, false
		}
	}
	return principal{userID: users[0], sessionID: sessionID}, true
}

// parseAPIKey reads "api-key <KEY>". The scheme name is matched without
// regard to case, as HTTP authentication schemes are.
func parseAPIKey(v string) (string, bool) {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "api-key") {
		return "", false
	}
	key := strings.TrimSpace(rest)
	if key == "" || strings.ContainsAny(key, " \t") {
		return "", false
	}
	return key, true
}

func (s *Server) lookupAPIKey(key string) (int64, bool) {
	s.idx.Lock()
	defer s.idx.Unlock()
	uid, ok := s.apiKeys[key]
	return uid, ok
}

func (s *Server) lookupToken(token string) (userID, sessionID int64, ok bool) {
	if token == "" {
		return 0, 0, false
	}
	s.idx.Lock()
	sid, found := s.tokens[token]
	s.idx.Unlock()
	if !found {
		return 0, 0, false
	}
	d := s.sessions.get(sid)
	if d == nil {
		return 0, 0, false
	}
	var sd sessionDoc
	d.read(&sd)
	if sd.Token != token {
		return 0, 0, false
	}
	return sd.UserID, sid, true
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

const pbkdf2Rounds = 2000

func hashPassword(salt, password string) string {
	k, err := pbkdf2.Key(sha256.New, password, []byte(salt), pbkdf2Rounds, 32)
	if err != nil {
		return ""
	}
	return hex.EncodeToString(k)
}

func checkPassword(salt, hash, password string) bool {
	if hash == "" {
		return false
	}
	got := hashPassword(salt, password)
	return subtle.ConstantTimeCompare([]byte(got), []byte(hash)) == 1
}

// setPassword replaces the password; the caller holds the user's lock.
func (s *Server) setPassword(u *userDoc, password string) {
	if s.is(fOldPasswordStillLogsIn) && u.PasswordHash != "" {
		u.PreviousSalt, u.PreviousHash = u.PasswordSalt, u.PasswordHash
	}
	u.PasswordSalt = randomHex(16)
	u.PasswordHash = hashPassword(u.PasswordSalt, password)
	u.PasswordLastChanged = now()
}

func (s *Server) passwordMatches(u *userDoc, password string) bool {
	if checkPassword(u.PasswordSalt, u.PasswordHash, password) {
		return true
	}
	return s.is(fOldPasswordStillLogsIn) && checkPassword(u.PreviousSalt, u.PreviousHash, password)
}

// emailKey is the form an email takes in the index: emails are compared
// without regard to case, so two spellings of one address are one account.
func emailKey(email string) string { return strings.ToLower(email) }

// emailOwner returns the user holding the email, 0 if none.
func (s *Server) emailOwner(key string) (int64, bool) {
	s.idx.Lock()
	defer s.idx.Unlock()
	uid, ok := s.emails[key]
	return uid, ok
}

// moveEmail re-points the index from oldKey to newKey for the user, checking
// again under the index lock that nobody took newKey meanwhile.
func (s *Server) moveEmail(oldKey, newKey string, uid int64) bool {
	racy := s.is(fEmailUniquenessRace)
	if racy {
		raceWindow()
	}
	s.idx.Lock()
	defer s.idx.Unlock()
	if owner, taken := s.emails[newKey]; taken && owner != uid && !racy {
		return false
	}
	if owner, ok := s.emails[oldKey]; ok && owner == uid && !s.is(fOldEmailStillLogsIn) {
		delete(s.emails, oldKey)
	}
	s.emails[newKey] = uid
	return true
}

// createSession is called with the user's document locked.
func (s *Server) createSession(u *userDoc) sessionDoc {
	sd := sessionDoc{Created: now(), CreatorUserID: u.ID, UserID: u.ID, Token: randomHex(32)}
	if len(u.ClientIDs) > 0 {
		c := u.ClientIDs[0]
		sd.ClientID = &c
	}
	s.sessions.insert(func(id int64) []byte {
		sd.ID = id
		return encode(sd)
	})
	s.idx.Lock()
	s.tokens[sd.Token] = sd.ID
	s.idx.Unlock()
	u.SessionIDs = append(u.SessionIDs, sd.ID)
	// Memory stays bounded: the oldest sessions of a user end first.
	for len(u.SessionIDs) > maxSessionsPerUser {
		s.dropSession(u.SessionIDs[0])
		u.SessionIDs = u.SessionIDs[1:]
	}
	return sd
}

func (s *Server) dropSession(id int64) {
	d := s.sessions.get(id)
	if d == nil {
		return
	}
	var sd sessionDoc
	d.read(&sd)
	s.idx.Lock()
	delete(s.tokens, sd.Token)
	s.idx.Unlock()
	s.sessions.remove(id)
}

// endOtherSessions serves the password-change-ends-other-sessions reading.
func (s *Server) endOtherSessions(u *userDoc, keep int64) {
	var kept []int64
	for _, id := range u.SessionIDs {
		if id == keep {
			kept = append(kept, id)
			continue
		}
		s.dropSession(id)
	}
	u.SessionIDs = kept
}
