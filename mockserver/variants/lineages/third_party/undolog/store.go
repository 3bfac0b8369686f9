package undolog

import (
	"sort"
	"sync"
	"time"
)

// Rows of the store. Every table is keyed by int64.

type User struct {
	ID              int64
	Created         time.Time
	Email           string
	Salt            string
	PasswordHash    string
	PasswordChanged time.Time
	FirstName       string
	LastName        string
	SubWelcome      bool
	SubBlog         bool
	SubHowto        bool
	SubOnboarding   bool
	PhoneCountryID  int64 // 0 = none
	PhoneNumber     string
	PhoneExtension  *string
	Timezone        string
	APIKey          string
}

type Client struct {
	ID         int64
	Created    time.Time
	Name       string
	Line1      string
	Line2      *string
	City       string
	Postcode   string
	Country    string
	VAT        *string
	CurrencyID int64
	Members    []int64
}

type App struct {
	ID         int64
	Created    time.Time
	ClientID   int64
	Name       string
	PlatformID int64
	WriteKey   string
	PlanID     int64
	Hash       *string
}

type Session struct {
	ID       int64
	Created  time.Time
	UserID   int64
	ClientID int64
	Token    string
}

type table[T any] struct {
	rows map[int64]T
	seq  int64
}

func newTable[T any](start int64) *table[T] {
	return &table[T]{rows: map[int64]T{}, seq: start - 1}
}

// Store is the in-memory transactional store: one RWMutex, tables and
// secondary indexes, changed only inside a write transaction whose undo log
// restores everything on Rollback.
type Store struct {
	mu       sync.RWMutex
	users    *table[User]
	clients  *table[Client]
	apps     *table[App]
	sessions *table[Session]
	byEmail  map[string]int64
	byAPIKey map[string]int64
	byToken  map[string]int64

	// fault switch: rollback-skips-email-index
	emailNoUndo bool
}

func newStore() *Store {
	return &Store{
		users:    newTable[User](1001),
		clients:  newTable[Client](5001),
		apps:     newTable[App](9001),
		sessions: newTable[Session](70001),
		byEmail:  map[string]int64{},
		byAPIKey: map[string]int64{},
		byToken:  map[string]int64{},
	}
}

type Tx struct {
	s     *Store
	write bool
	undo  []func()
	done  bool
}

// Begin starts a write transaction (exclusive).
func (s *Store) Begin() *Tx { s.mu.Lock(); return &Tx{s: s, write: true} }

// Read starts a read-only transaction (shared).
func (s *Store) Read() *Tx { s.mu.RLock(); return &Tx{s: s} }

func (tx *Tx) Commit() {
	if tx.done {
		return
	}
	tx.done = true
	tx.undo = nil
	if tx.write {
		tx.s.mu.Unlock()
	} else {
		tx.s.mu.RUnlock()
	}
}

func (tx *Tx) Rollback() {
	if tx.done {
		return
	}
	for i := len(tx.undo) - 1; i >= 0; i-- {
		tx.undo[i]()
	}
	tx.Commit()
}

// Checkpoint forgets the undo log recorded so far: what was written is kept
// even if the transaction later rolls back.
func (tx *Tx) Checkpoint() { tx.undo = nil }

func (tx *Tx) log(f func()) {
	if !tx.write {
		panic("undolog: write inside a read transaction")
	}
	tx.undo = append(tx.undo, f)
}

func get[T any](tx *Tx, t *table[T], id int64) (T, bool) {
	v, ok := t.rows[id]
	return v, ok
}

func peekID[T any](tx *Tx, t *table[T]) int64 { return t.seq + 1 }

// insert stores mk(id) under a new id (or under id when id != 0).
func insert[T any](tx *Tx, t *table[T], id int64, mk func(id int64) T) int64 {
	prev := t.seq
	if id == 0 {
		t.seq++
		id = t.seq
	} else if id > t.seq {
		t.seq = id
	}
	old, existed := t.rows[id]
	t.rows[id] = mk(id)
	tx.log(func() {
		t.seq = prev
		if existed {
			t.rows[id] = old
		} else {
			delete(t.rows, id)
		}
	})
	return id
}

func put[T any](tx *Tx, t *table[T], id int64, v T) {
	old, existed := t.rows[id]
	t.rows[id] = v
	tx.log(func() {
		if existed {
			t.rows[id] = old
		} else {
			delete(t.rows, id)
		}
	})
}

func scan[T any](tx *Tx, t *table[T], keep func(T) bool) []T {
	ids := make([]int64, 0, len(t.rows))
	for id, v := range t.rows {
		if keep(v) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]T, len(ids))
	for i, id := range ids {
		out[i] = t.rows[id]
	}
	return out
}

func (tx *Tx) idxSet(idx map[string]int64, key string, id int64, undo bool) {
	old, existed := idx[key]
	idx[key] = id
	if !undo {
		return
	}
	tx.log(func() {
		if existed {
			idx[key] = old
		} else {
			delete(idx, key)
		}
	})
}

func (tx *Tx) idxDel(idx map[string]int64, key string, undo bool) {
	old, existed := idx[key]
	if !existed {
		return
	}
	delete(idx, key)
	if !undo {
		return
	}
	tx.log(func() { idx[key] = old })
}

// primaryClient is the lowest-numbered client the user is a member of (0 if none).
func primaryClient(tx *Tx, uid int64) int64 {
	cs := scan(tx, tx.s.clients, func(c Client) bool { return isMember(c, uid) })
	if len(cs) == 0 {
		return 0
	}
	return cs[0].ID
}

func isMember(c Client, uid int64) bool {
	for _, m := range c.Members {
		if m == uid {
			return true
		}
	}
	return false
}
