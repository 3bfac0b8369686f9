package policy

import (
	"fmt"
	"strings"
)

// Cite is the sentence that decides a judgement: a section of the spec and
// its words, verbatim (TestCitesAreTheSpecsWords); where the spec defers
// to a standard (JSON is RFC 8259, HTTP RFC 9110, an email address RFC
// 5322), the RFC beside it in Also. The zero Cite decides nothing.
type Cite struct {
	Section string // of the spec: "7.3", "2.1"
	Words   string // a phrase of that section, word for word
	Also    string // the standard the spec's words defer to, if any: "RFC 8259 4"
}

// Decided reports whether the cite names a sentence.
func (c Cite) Decided() bool { return c.Section != "" && c.Words != "" }

// String is the cite as a reason line ends: section, words and standard.
func (c Cite) String() string {
	if !c.Decided() {
		return "silent"
	}
	s := c.Section + ` "` + strings.TrimSuffix(c.Words, ".") + `"`
	if c.Also != "" {
		s += "; " + c.Also
	}
	return s
}

// Check is one judgement the oracle makes of an answer. A check whose
// Decided cites nothing is silent: whatever the target answered there is
// its choice, and the oracle adopts it (never a divergence of its own).
type Check struct {
	ID      string
	What    string // what it judges, as the README's list says it
	Decided Cite
}

// Silent reports whether the check is silent.
func (c Check) Silent() bool { return !c.Decided.Decided() }

// The checks of the oracle: every divergence names one.
var (
	CheckNoAnswer = Check{ID: "no-answer", What: "every request gets an HTTP answer",
		Decided: Cite{Section: "1", Words: "The service is a RESTful HTTP API"}}
	CheckServerError = Check{ID: "5xx", What: "no request is answered with a 5xx: a request either succeeds (200) or meets a condition of 7.2",
		Decided: Cite{Section: "4", Words: "Every endpoint below returns HTTP 200 on success."}}
	CheckStatus = Check{ID: "status", What: "the status is one the verdict's rules allow (each verdict cites its own rule)",
		Decided: Cite{Section: "7.2", Words: "| Status | Condition |"}}
	CheckPassword = Check{ID: "password", What: "no answer carries a password, in clear or in any hash form",
		Decided: Cite{Section: "2.1", Words: "The password is never returned."}}
	CheckJSON = Check{ID: "json", What: "a 200 or a 400 is JSON, labelled as JSON",
		Decided: Cite{Section: "1", Words: "Request and response bodies are JSON.", Also: "RFC 9110 8.3 (Content-Type)"}}
	CheckErrorShape = Check{ID: "errors-shape", What: "a 400 is an array of objects of fieldName, error and message",
		Decided: Cite{Section: "7.1", Words: "A 400 response (HTTP 400 Bad Request) has a body that is a JSON array."}}
	CheckErrorNames = Check{ID: "errors-names", What: "a 400 names each offending field, and no valid one",
		Decided: Cite{Section: "7.1", Words: "Name of the offending body field"}}
	CheckErrorCode = Check{ID: "errors-code", What: "a 400 carries the code 7.3 names for the condition (each code cites its row)",
		Decided: Cite{Section: "7.3", Words: "| Endpoint | Code | Condition |"}}
	CheckEntity = Check{ID: "entity", What: "a 200 is the object of section 2 the endpoint answers",
		Decided: Cite{Section: "4", Words: "Every endpoint below returns HTTP 200 on success."}}
	CheckField = Check{ID: "field", What: "a field of a 200 holds what the writes stored (an update stores what it is sent)",
		Decided: Cite{Section: "4.1", Words: "Updates a user, for example the email address or password."}}
	CheckID = Check{ID: "id", What: "ids are Numbers and identify: the same entity keeps its id, two never share one",
		Decided: Cite{Section: "2.1", Words: "ID of the user"}}
	CheckDate = Check{ID: "date", What: "dates are ISO 8601, of the event they date, and do not move",
		Decided: Cite{Section: "1", Words: "Dates are ISO 8601 strings."}}
	CheckLearned = Check{ID: "learned", What: "a value the reference cannot know (a marketplace app's name, a dial code) is the same at every answer",
		Decided: Cite{Section: "2.3", Words: "The marketapp hash uniquely identifies an app on an Android or iOS store."}}
	CheckWriteKey = Check{ID: "write-key", What: "a write key is 32 hexadecimal characters, and an app's own",
		Decided: Cite{Section: "2.3", Words: "Write key for this app (a 32-hexadecimal-character value in the response shape)"}}
	CheckSession = Check{ID: "session", What: "a session is the account's: its user, a client of it, a token of its own",
		Decided: Cite{Section: "5", Words: "A client obtains a session by POST /sessions with the credentials of the account to use."}}
	CheckPlan = Check{ID: "plan", What: "an app's plan flags are Booleans, those of a plan of the catalogue",
		Decided: Cite{Section: "2.3", Words: "| plan | Object | Plan flags |"}}
	CheckPlatforms = Check{ID: "platforms", What: "the platforms collection is a wrapper listing every platform",
		Decided: Cite{Section: "2.5", Words: "A collection endpoint returns a wrapper object, not a bare array."}}
	CheckState = Check{ID: "state", What: "what a read shows afterwards: an accepted write kept, a refused one changed nothing, a list holds what was made",
		Decided: Cite{Section: "4.3", Words: "The request then either creates both or returns an error and creates neither."}}
	CheckIsolation = Check{ID: "isolation", What: "no answer to an account, whatever its status, carries in its body or headers what only another account wrote, or another account's key or session token",
		Decided: Cite{Section: "5", Words: "When the authenticated caller may not view or modify the resource, the response is HTTP 403."}}
	CheckLinearizable = Check{ID: "linearizable", What: "answers to requests sent at once are explained by some serial order of them, consistent with real time, on the reference",
		Decided: Cite{Section: "4", Words: "Every endpoint below returns HTTP 200 on success.", Also: "each answer is the endpoint's, in the state some order of the writes left"}}
	CheckHeld = Check{ID: "held", What: "a choice the target made where the spec is silent is made again for the same kind of input in the same place",
		Decided: Cite{Section: "7.2", Words: "| 400 | Validation failure, with codes below |"}}
	CheckReference = Check{ID: "reference", What: "the reference itself could not take a step the target accepted: the explorer's own failing, reported nowhere"}
)

// Checks lists every check, in the README's order.
func Checks() []Check {
	return []Check{CheckNoAnswer, CheckServerError, CheckStatus, CheckPassword, CheckJSON, CheckErrorShape, CheckErrorNames,
		CheckErrorCode, CheckEntity, CheckField, CheckID, CheckDate, CheckLearned, CheckWriteKey, CheckSession, CheckPlan,
		CheckPlatforms, CheckState, CheckIsolation, CheckLinearizable, CheckHeld, CheckReference}
}

// CheckByID finds a check of the table.
func CheckByID(id string) (Check, bool) {
	for _, c := range Checks() {
		if c.ID == id {
			return c, true
		}
	}
	return Check{}, false
}

// Verify reports whether the cite's words are the spec's, in the section
// (or one of the comma-separated sections, or a subsection of one) it
// names, whitespace folded: a cite that names no sentence of the spec is
// an error, never a silent check.
func Verify(c Cite, spec string) error {
	if !c.Decided() {
		return fmt.Errorf("a cite with no section or no words")
	}
	words := fold(c.Words)
	for _, sec := range strings.Split(c.Section, ",") {
		sec = strings.TrimSpace(sec)
		if strings.Contains(fold(sectionText(spec, sec)), words) {
			return nil
		}
	}
	return fmt.Errorf("the spec's section %s has no words %q", c.Section, c.Words)
}

// sectionText is the text of a numbered section of the spec with its
// subsections: "2.1" is the heading "### 2.1 User" and what follows it up
// to the next heading of its level or above.
func sectionText(spec, section string) string {
	var out strings.Builder
	in := false
	for _, line := range strings.Split(spec, "\n") {
		if strings.HasPrefix(line, "#") {
			head := strings.TrimLeft(line, "# ")
			num, _, _ := strings.Cut(head, " ")
			num = strings.TrimSuffix(num, ".")
			in = num == section || strings.HasPrefix(num, section+".")
		}
		if in {
			out.WriteString(line + "\n")
		}
	}
	return out.String()
}

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }
