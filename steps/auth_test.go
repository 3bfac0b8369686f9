package steps

import (
	"net/url"
	"testing"
)

// A token with every byte percent-encoded is the token again once a
// server decodes its query (RFC 3986 2.1), unreserved characters included.
func TestPercentEncodeAll(t *testing.T) {
	for _, tok := range []string{"abc-DEF_123.~", "a+b/c=", "é"} {
		enc := percentEncodeAll(tok)
		if len(enc) != 3*len(tok) {
			t.Errorf("percentEncodeAll(%q) = %q: not every byte encoded", tok, enc)
		}
		q, err := url.ParseQuery("sessionToken=" + enc)
		if err != nil || q.Get("sessionToken") != tok {
			t.Errorf("percentEncodeAll(%q) = %q decodes to %q (%v)", tok, enc, q.Get("sessionToken"), err)
		}
	}
}
