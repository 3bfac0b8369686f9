package steps

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// docPhrase is a phrase line of the catalogue in doc.go.
var docPhrase = regexp.MustCompile(`(?m)^//\t(?:Given|When|Then|And) (.+)$`)

// instantiate fills a catalogue phrase's placeholders with sample values,
// so that the registered expression it documents matches it.
func instantiate(p string) string {
	p = regexp.MustCompile(`"<[^>"]+>"`).ReplaceAllString(p, `"x"`)
	p = strings.ReplaceAll(p, "<code>", "200")
	p = strings.ReplaceAll(p, "<json>", `"x"`)
	p = strings.ReplaceAll(p, "<N>", "5")
	p = strings.ReplaceAll(p, "a string|number|boolean|object|array|null", "a string")
	return strings.TrimSpace(p)
}

// TestDocListsEveryPhrase: doc.go's catalogue is the one list of the
// vocabulary people read; a phrase added, renamed or removed without it
// fails here. Every phrase of the catalogue matches a registered phrase,
// and every registered phrase is in the catalogue.
func TestDocListsEveryPhrase(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, r := range (&Suite{}).registrars() {
		for _, d := range r.steps() {
			exprs = append(exprs, d.expr)
		}
	}
	documented := map[string]bool{}
	lines := docPhrase.FindAllStringSubmatch(string(b), -1)
	if len(lines) < 30 {
		t.Fatalf("found %d phrases in doc.go; the catalogue's format changed?", len(lines))
	}
	for _, m := range lines {
		text := instantiate(m[1])
		matched := false
		for _, e := range exprs {
			if stepRegexp(e).MatchString(text) {
				matched, documented[e] = true, true
			}
		}
		if !matched {
			t.Errorf("doc.go lists %q, which no registered phrase matches (as %q)", m[1], text)
		}
	}
	for _, e := range exprs {
		if !documented[e] {
			t.Errorf("the phrase %s is registered but not in doc.go's catalogue", e)
		}
	}
}
