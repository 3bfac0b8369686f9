package match

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// passwordHash matches the stored forms of a password that frameworks
// write, whole: bcrypt ($2a$, $2b$, $2x$, $2y$, 60 characters), Argon2,
// scrypt ($scrypt$, $7$), PBKDF2 (Django's and Werkzeug's pbkdf2_sha256$…,
// pbkdf2:sha256:…, passlib's $pbkdf2-sha256$…), the SHA crypt of glibc
// ($5$, $6$, with or without rounds=), MD5 crypt ($1$) and LDAP's {SSHA}
// and {SHA}. No other value of an answer has these forms.
var passwordHash = regexp.MustCompile(`^(\$2[abxy]\$\d\d\$[./A-Za-z0-9]{53}` +
	`|\$argon2(id|i|d)\$.+|\$scrypt\$.+|\$7\$.+` +
	`|pbkdf2[:_$]sha(1|256|512)[:$].+|\$pbkdf2(-sha(1|256|512))?\$.+` +
	`|\$[156]\$(rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}` +
	`|\{S?SHA(256|512)?\}[A-Za-z0-9+/=]+)$`)

// PasswordIn says where body carries the password (in clear, as an unsalted
// digest, any value in a password-hash format, or a string member named for
// the password, such as a salted passwordHash), or "" when it does not.
// A body that is not JSON is searched as text. A value equal to one of
// known (what the request sent, the account's email) is not a leak even
// when the password is part of it: a password "contract" is in the echoed
// email contract-qa@example.com.
func PasswordIn(body []byte, password string, known ...string) string {
	var forms []string
	for _, sum := range [][]byte{md5sum(password), sha1sum(password), sha256sum(password), sha512sum(password)} {
		forms = append(forms, hex.EncodeToString(sum), base64.StdEncoding.EncodeToString(sum),
			base64.RawStdEncoding.EncodeToString(sum), base64.RawURLEncoding.EncodeToString(sum))
	}
	check := func(path, s string) string {
		if slices.Contains(known, s) {
			return ""
		}
		switch {
		case strings.Contains(s, password):
			return "the value at " + path + " contains it"
		case passwordHash.MatchString(s):
			return "the value at " + path + " is a password hash"
		}
		for _, f := range forms {
			if strings.Contains(strings.ToLower(s), strings.ToLower(f)) {
				return "the value at " + path + " holds an unsalted digest of it"
			}
		}
		return ""
	}
	if !gjson.ValidBytes(body) {
		return check("(the body, not JSON)", string(body))
	}
	var where string
	var walk func(path string, v gjson.Result)
	walk = func(path string, v gjson.Result) {
		if where != "" {
			return
		}
		switch {
		case v.Type == gjson.String:
			where = check(path, v.Str)
		case v.IsObject() || v.IsArray():
			v.ForEach(func(k, e gjson.Result) bool {
				p := k.String()
				if path != "" {
					p = path + "." + p
				}
				if k.Type == gjson.String {
					if w := check("the key "+p, k.Str); w != "" {
						where = w
						return false
					}
					if namedForPassword(k.Str) && e.Type == gjson.String && len(e.Str) >= 8 {
						// A salted hash cannot be recognised by its value;
						// its name says what it is (passwordHash, password_salt).
						where = "the value at " + p + " is named for the password"
						return false
					}
				}
				walk(p, e)
				return where == ""
			})
		}
	}
	walk("", gjson.ParseBytes(body))
	return where
}

// namedForPassword reports whether a member's name says it holds the
// password or a form of it: it names the password, and is not the date of
// its last change that 2.1 returns.
func namedForPassword(key string) bool {
	k := strings.ToLower(key)
	return strings.Contains(k, "password") && k != "passwordlastchanged"
}

func md5sum(s string) []byte    { h := md5.Sum([]byte(s)); return h[:] }
func sha1sum(s string) []byte   { h := sha1.Sum([]byte(s)); return h[:] }
func sha256sum(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }
func sha512sum(s string) []byte { h := sha512.Sum512([]byte(s)); return h[:] }

// SentStrings are the string values of a JSON body but its password's, the
// values a server may echo.
func SentStrings(body []byte) []string {
	var out []string
	var walk func(key string, v gjson.Result)
	walk = func(key string, v gjson.Result) {
		switch {
		case v.Type == gjson.String && key != "password":
			out = append(out, v.Str)
		case v.IsObject() || v.IsArray():
			v.ForEach(func(k, e gjson.Result) bool { walk(k.String(), e); return true })
		}
	}
	walk("", gjson.ParseBytes(body))
	return out
}
