package mockserver

import "time"

// SetBodyHold sets how long a body may stall while others wait for room
// before it is cut off (idleHold), for the tests that wait for a cut.
func SetBodyHold(s *Server, d time.Duration) { s.bodies.idle = d }

// AnonymousRoom is the room left in the anonymous share of the body
// budget.
func AnonymousRoom(s *Server) int64 {
	s.bodies.mu.Lock()
	defer s.bodies.mu.Unlock()
	return s.bodies.anonFree
}
