package pricing

import (
	"fmt"
	"slices"
)

// Who may act on a user or a client (spec section 5).

// MayActOnUser reports whether the caller may read and modify a user: only
// its own (spec section 5).
func (s *Store) MayActOnUser(callerID, userID int64) bool {
	if s.dev.PermissionCheckedAfterWrite {
		s.noteRefusal(fmt.Sprint("user ", userID), callerID != userID)
		return true
	}
	return callerID == userID || s.dev.AnyUserMayAct || (callerID == 0 && s.dev.NobodyMayActOnUsers)
}

// noteRefusal records the outcome of the latest permission check of a
// resource, under Deviations.PermissionCheckedAfterWrite: the write that
// follows is stored, then refused.
func (s *Store) noteRefusal(resource string, refused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused == nil {
		s.refused = map[string]bool{}
	}
	s.refused[resource] = refused
}

// MayActOnClient reports whether the caller may read and modify a client:
// only one it is a member of (spec section 5).
func (s *Store) MayActOnClient(callerID, clientID int64) bool {
	if s.dev.PermissionCheckedAfterWrite {
		s.noteRefusal(fmt.Sprint("client ", clientID), !s.IsMember(callerID, clientID))
		return true
	}
	return s.IsMember(callerID, clientID) || s.dev.AnyoneMayActOnClients
}

// IsMember reports whether a user is a member of a client.
func (s *Store) IsMember(userID, clientID int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[userID]
	return ok && slices.Contains(r.ClientIDs, clientID)
}
