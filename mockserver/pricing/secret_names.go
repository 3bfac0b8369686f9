package pricing

import "strings"

// A name of a field, a query argument or a header holds a secret when, in
// lower case and without "-", "_", "." and spaces, it contains one of
// secretWords (passwordLastChanged, a date, aside): password, apiKey,
// api_key, writeKey, X-Api-Key, X-Client-Key, sessionToken, session-token,
// Authorization, X-Auth-User, Proxy-Authorization, Cookie and the like. The
// mock's journal masks such values, and a replay of a recording never sends
// them as recorded: the two read names alike.
//
// The words are broad on purpose ("key", "auth"): a list of known names
// missed the ones nobody listed (writeKey, X-Client-Key), and a name masked
// that held no secret costs a developer a look at the request, while one
// shown in clear gives its secret to whoever reads the journal.
var secretWords = []string{"password", "passwd", "token", "key", "secret", "auth", "cookie", "credential"}

// notSecret are names that contain a secret word but hold none.
var notSecret = map[string]bool{"passwordlastchanged": true}

// NormalName lowers a name and drops the separators people put between
// its words.
func NormalName(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', ' ':
			return -1
		}
		return r
	}, strings.ToLower(name))
}

// SecretName reports whether a name holds a secret.
func SecretName(name string) bool {
	n := NormalName(name)
	return !notSecret[n] && MentionsSecret(n)
}

// MentionsSecret reports whether a normal name (NormalName) contains a
// secret word anywhere.
func MentionsSecret(normal string) bool {
	for _, w := range secretWords {
		if strings.Contains(normal, w) {
			return true
		}
	}
	return false
}
