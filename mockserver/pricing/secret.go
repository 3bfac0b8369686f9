package pricing

import (
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"sync"
)

// Secret is the key of every credential hash a store keeps: passwords, API
// keys and session tokens are kept and exported as HMAC-SHA256 under it, so
// that a state document that leaks (a --state file, an export) gives none of
// them away, not even to a dictionary of likely keys, unless the secret
// leaks with it. A keyed hash is one HMAC per check: an API key is looked up
// by its hash in one map access on every request, and a login costs
// microseconds, where a slow hash would cost milliseconds each time.
//
// Every store of a Source shares its secret, so that a state moves between
// the namespaces of one mock. --state keeps the secret in a file of its own
// beside the state (mockserver), so that it outlives a restart.
type Secret struct {
	key  [32]byte
	id   string
	macs sync.Pool // of hash.Hash: hmac.New costs more than a Reset
}

// SecretSize is the length of a secret's key, in bytes.
const SecretSize = 32

// NewSecret returns a fresh secret from crypto/rand: never from a seeded
// generator, since --seed values are meant to be known.
func NewSecret() *Secret {
	var key [SecretSize]byte
	// crypto/rand.Read never returns an error (see rand.go).
	_, _ = crand.Read(key[:])
	return newSecret(key)
}

// ParseSecret reads a secret written by MarshalText: 64 hex characters.
func ParseSecret(text []byte) (*Secret, error) {
	b, ok := decodeHex(string(text), SecretSize)
	if !ok {
		return nil, errors.New("a secret is 64 hexadecimal characters")
	}
	return newSecret([SecretSize]byte(b)), nil
}

func newSecret(key [SecretSize]byte) *Secret {
	s := &Secret{key: key}
	s.macs.New = func() any { return hmac.New(sha256.New, s.key[:]) }
	id := s.sum(kindID, []byte("pricing-mock secret id"))
	s.id = hex.EncodeToString(id[:8])
	return s
}

// MarshalText writes the secret's key as 64 hex characters.
func (s *Secret) MarshalText() ([]byte, error) {
	return []byte(hex.EncodeToString(s.key[:])), nil
}

// ID names the secret without giving it away: an export carries it, so that
// an import can tell hashes made under another secret (which it could never
// match) from its own.
func (s *Secret) ID() string { return s.id }

// The kinds of hashes, so that a key, a token and a password with the same
// text never hash alike.
const (
	kindID       = 'i'
	kindPassword = 'p'
	kindAPIKey   = 'k'
	kindToken    = 't'
)

// sum is HMAC-SHA256(key, kind || parts...).
func (s *Secret) sum(kind byte, parts ...[]byte) [32]byte {
	mac := s.macs.Get().(hash.Hash)
	mac.Reset()
	mac.Write([]byte{kind})
	for _, p := range parts {
		mac.Write(p)
	}
	var out [32]byte
	mac.Sum(out[:0])
	s.macs.Put(mac)
	return out
}

func (s *Secret) passwordHash(salt []byte, password string) [32]byte {
	return s.sum(kindPassword, salt, []byte(password))
}

func (s *Secret) apiKeyHash(key string) [32]byte { return s.sum(kindAPIKey, []byte(key)) }

func (s *Secret) tokenHash(token string) [32]byte { return s.sum(kindToken, []byte(token)) }
