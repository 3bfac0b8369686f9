// Package lineage holds the types that the lineages export alike, for them
// to share: the login of an account, the options of New and the entry of
// a fault list. How a lineage seeds and bounds them, and which faults it
// has, stays its own.
package lineage

// Account is one login: a user of a client, with its password and api key.
type Account struct {
	Email, Password, APIKey string
}

// Options configure a server.
type Options struct {
	// Pairs is how many pairs of accounts to seed (default 1). Every account
	// is its own user of its own client (no two accounts share a user or a
	// client). Pair i is (Accounts()[i][0], Accounts()[i][1]).
	Pairs int
	// Fault names one of the lineage's faults to switch on; "" is the
	// correct server.
	Fault string
}

// Fault is a deliberate bug of a lineage whose faults are all bugs (events,
// tables); which faults it has and what they do stays the lineage's own.
type Fault struct {
	Name        string // kebab-case, unique
	Rule        string // the spec section whose rule it breaks, e.g. "7.3" or "4.1"
	Description string // one sentence: what the server then does wrong
}

// BlindFault is a switchable behaviour of a blind audit's lineage
// (documents, ledger, shards): a bug (Legal false), or another reading
// the spec leaves open (Legal true).
type BlindFault struct {
	Name        string // kebab-case, unique, says what it does
	Legal       bool   // true: another reading the spec allows; false: a bug
	Rule        string // the spec section(s) it concerns
	Quote       string // the words of the spec it breaks, or that leave it open
	Description string // what the server then does
}
