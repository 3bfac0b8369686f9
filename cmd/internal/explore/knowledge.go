package explore

import (
	"regexp"
	"sync"
	"time"
)

// What the judgement stands on: the run's knowledge of the target, shared
// by its pairs, and one answer to judge (judgement).

// knowledge is what a run learned of the target, for every later answer,
// shared by its pairs: the values the reference cannot know (learned), the
// ids of the entities it made and the write keys (seen), the session tokens
// (tokens: owner).
type knowledge struct {
	mu      sync.Mutex
	learned map[string]learnedValue
	seen    map[string]string
	tokens  map[string]string
	// held are the choices the target made where the spec is silent, by
	// the kind of input and its place (judgement.hold).
	held map[string]heldChoice
	// minted are the unique words the run's generators made; written,
	// those an account's accepted requests stored, by owner (isolation.go).
	minted  map[string]bool
	written map[string]string
	// created counts the creates each account's requests made, by owner
	// and kind (bounds.go).
	created map[string]int
	// floor is how far ahead of the runner's clock the target's clock is
	// at least, from the dates its answers carried (staleEvent).
	floor    time.Duration
	hasFloor bool
}

// clockSeen takes a date an answer carried and when the answer arrived.
func (k *knowledge) clockSeen(date, received time.Time) {
	if received.IsZero() {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if d := date.Sub(received); !k.hasFloor || d > k.floor {
		k.floor, k.hasFloor = d, true
	}
}

// clockFloor is how far ahead of the runner's clock the target's clock is
// at least, if any date has been seen.
func (k *knowledge) clockFloor() (time.Duration, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.floor, k.hasFloor
}

// mint records a unique word a generator made.
func (k *knowledge) mint(w string) {
	k.mu.Lock()
	k.minted[w] = true
	k.mu.Unlock()
}

// heldChoice is one choice of the target: taken or refused, the status,
// and where.
type heldChoice struct {
	taken  bool
	status int
	where  string
}

func newKnowledge() *knowledge {
	return &knowledge{learned: map[string]learnedValue{}, seen: map[string]string{}, tokens: map[string]string{}, held: map[string]heldChoice{}, minted: map[string]bool{}, written: map[string]string{}, created: map[string]int{}}
}

type learnedValue struct {
	raw    string // the JSON the target first answered
	where  string // "sequence N, step M"
	taught *Step  // the request whose answer showed it, when it was a step's own
}

var writeKeyRE = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)

// judgement is one answer to judge.
type judgement struct {
	wd    *world
	k     *knowledge
	s     *seqState
	i     int    // the step
	label string // the pair's label, for tokens
}
