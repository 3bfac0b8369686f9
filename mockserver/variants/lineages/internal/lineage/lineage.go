// Package lineage holds the types that the lineages export alike, for them
// to share: the login of an account and the options of New. How a lineage
// seeds and bounds them stays its own.
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
