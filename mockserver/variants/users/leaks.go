package users

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The password is never returned, in any form, in any answer (2.1).
var leaksServers = []variants.Server{
	{Name: "password-leaked", Rule: "2.1", Why: "the user object carries the password hash", Origin: variants.BuiltIn,
		Answer: variants.OnObjectsWith("passwordLastChanged", func(o map[string]any) {
			o["password"] = "$2y$10$leakedleakedleakedleakedleakedleakedleakedleakedlea"
		}),
	},
	{Name: "password-echoed-by-sessions", Rule: "2.1", Why: "POST /sessions answers the password it was sent", Origin: variants.FaultClasses,
		Request: variants.NotePassword(variants.PostLogin),
		Answer:  variants.AnswerNoted(variants.PasswordMark, variants.PostLogin, func(o map[string]any, pw string) { o["password"] = pw }),
	},
	{Name: "password-in-error-message", Rule: "2.1", Why: "the InvalidPassword message quotes the password it refused", Origin: variants.FaultClasses,
		Request: variants.NotePassword(variants.PutUser),
		Answer: func(a *rewrite.Answer) {
			pw := a.Request.Header.Get(variants.PasswordMark)
			if pw == "" {
				return
			}
			variants.OnBadRequest(func(errs []any) any {
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok && o["fieldName"] == "password" {
						o["message"] = "The password " + strconv.Quote(pw) + " is too short."
					}
				}
				return errs
			})(a)
		},
	},
	{Name: "client-members-leaked", Rule: "2.1", Why: "a client answer lists its members with their password hashes", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(func(r *http.Request) bool { return variants.PostClients(r) || variants.PutClient(r) }, func(o map[string]any) {
			o["users"] = []any{map[string]any{"id": json.Number("1"), "passwordHash": "$2y$10$" + strings.Repeat("Q", 53)}}
		}),
	},
	{Name: "app-creator-leaked", Rule: "2.1", Why: "an app answer carries the user who created it, password hash included", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostApps, func(o map[string]any) {
			o["creator"] = map[string]any{"id": json.Number("1"), "passwordHash": "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"}
		}),
	},
	{Name: "password-bcrypt-in-session", Rule: "2.1", Why: "POST /sessions answers the user's bcrypt password hash ($2b$)", Origin: variants.Gate3,
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			o["passwordHash"] = "$2b$12$" + strings.Repeat("Ab1.", 13) + "x"
		}),
	},
	{Name: "password-sha256-base64-leaked", Rule: "2.1", Why: "the answer to a password change carries the base64 SHA-256 of the new password", Origin: variants.Gate3,
		Request: variants.NotePassword(variants.PutUser),
		Answer: variants.AnswerNoted(variants.PasswordMark, variants.PutUser, func(o map[string]any, pw string) {
			sum := sha256.Sum256([]byte(pw))
			o["checksum"] = base64.StdEncoding.EncodeToString(sum[:])
		}),
	},
	{Name: "password-sha-crypt-leaked", Rule: "2.1", Why: "the user object carries the password as a SHA-512 crypt string ($6$salt$…)", Origin: variants.Gate3,
		Answer: variants.OnObjectsWith("passwordLastChanged", func(o map[string]any) {
			o["passwordHash"] = "$6$rounds=5000$contractsalt$" + strings.Repeat("Ab1/", 21) + "xy"
		}),
	},
	{Name: "password-sha512-hex-leaked", Rule: "2.1", Why: "the answer to a password change carries the unsalted SHA-512 of the new password, in upper-case hex", Origin: variants.Gate3,
		Request: variants.NotePassword(variants.PutUser),
		Answer: variants.AnswerNoted(variants.PasswordMark, variants.PutUser, func(o map[string]any, pw string) {
			sum := sha512.Sum512([]byte(pw))
			o["passwordDigest"] = strings.ToUpper(hex.EncodeToString(sum[:]))
		}),
	},
	{
		Name:   "password-echoed",
		Rule:   "2.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.1: "The password is never returned"; PUT /users that changes the password echoes it in the answer`,
		Wrap: variants.EditAnswersWhen(variants.PutUser, func(a *rewrite.Answer, body map[string]any) bool {
			pw, ok := variants.Str(body, "password")
			if a.Status != http.StatusOK || !ok {
				return false
			}
			return variants.EditObject(a, func(o map[string]any) bool {
				o["password"] = pw
				return true
			})
		}),
	},
}
