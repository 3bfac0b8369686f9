package pricing

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"sync"
	"time"
)

// seededEpoch is where the clock of a seeded server starts.
var seededEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Source is the one place the server gets randomness and time from, so that a
// seed makes every generated value repeatable. It is safe for concurrent use.
//
// It also holds the Secret of the credential hashes of every store made
// with it: a fresh one from crypto/rand, seed or no seed, until UseSecret
// replaces it.
type Source struct {
	mu     sync.Mutex
	rng    *rand.ChaCha8 // nil: crypto/rand
	next   time.Time     // seeded clock; zero: wall clock
	secret *Secret
}

func NewSource(seed *int64) *Source {
	if seed == nil {
		return &Source{secret: NewSecret()}
	}
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], uint64(*seed))
	return &Source{rng: rand.NewChaCha8(key), next: seededEpoch, secret: NewSecret()}
}

// UseSecret makes secret the key of the credential hashes of the stores
// made with s from now on; call it before making any.
func (s *Source) UseSecret(secret *Secret) { s.secret = secret }

// Secret is the key of the credential hashes of the stores made with s.
func (s *Source) Secret() *Secret { return s.secret }

// read fills b with random bytes.
func (s *Source) read(b []byte) {
	if s.rng == nil {
		// crypto/rand.Read never returns an error on supported platforms
		// (it crashes the program instead), see its documentation.
		_, _ = crand.Read(b)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.rng.Read(b)
}

// hex returns n random bytes as 2n lower-case hex characters.
func (s *Source) hex(n int) string {
	b := make([]byte, n)
	s.read(b)
	return hex.EncodeToString(b)
}

// now is the current time in UTC, whole seconds. A seeded clock moves one
// second per call, so that dates differ between resources and repeat per seed.
func (s *Source) now() time.Time {
	if s.rng == nil {
		return time.Now().UTC().Truncate(time.Second)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.next
	s.next = s.next.Add(time.Second)
	return t
}
