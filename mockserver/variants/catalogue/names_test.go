package catalogue_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// roundCodes are the short codes a name could give a round by: the round
// itself ("blind-1") and run together ("blind1"), its first word or its
// initials with its number ("blind1", "b1"; "gate-3": "g3"), its initials
// alone ("fault-classes": "fc"), and its first word or first letter with a
// two-digit part of its date ("blind26", "b26" of 2026-11-26).
func roundCodes(o variants.Origin) []string {
	words := regexp.MustCompile(`[a-z]+`).FindAllString(o.Round, -1)
	number := regexp.MustCompile(`[0-9]+`).FindString(o.Round)
	if len(words) == 0 {
		return []string{o.Round}
	}
	initials := ""
	for _, w := range words {
		initials += w[:1]
	}
	codes := []string{o.Round, strings.ReplaceAll(o.Round, "-", "")}
	switch {
	case number != "":
		codes = append(codes, initials+number, words[0][:1]+number, words[0]+number)
	case len(words) > 1:
		codes = append(codes, initials)
	}
	if d := strings.Split(o.Date, "-"); len(d) == 3 {
		for _, part := range []string{d[0][len(d[0])-2:], d[1], d[2]} {
			codes = append(codes, words[0]+part, words[0][:1]+part)
		}
	}
	return codes
}

// roundPrefix is the round code a name starts with, followed by a dash, or
// "".
func roundPrefix(name string, codes []string) string {
	for _, c := range codes {
		if strings.HasPrefix(name, c+"-") {
			return c
		}
	}
	return ""
}

// TestNoNameCarriesItsRound: where a server came from is its Origin, data
// (README, "Blind audits"); a name is what the server does, with no round
// code in front of it. The codes come from the rounds of the catalogue, so
// that a new round is checked as soon as a server has it.
func TestNoNameCarriesItsRound(t *testing.T) {
	servers := slices.Concat(catalogue.All(), catalogue.Lineages())
	var codes []string
	for _, s := range servers {
		for _, c := range roundCodes(s.Origin) {
			if !slices.Contains(codes, c) {
				codes = append(codes, c)
			}
		}
	}
	// The codes the two blind audits' names once started with: the check
	// must know them.
	for _, old := range []string{"blind26", "b2"} {
		if !slices.Contains(codes, old) {
			t.Errorf("the round code %s is not among %v", old, codes)
		}
	}
	for _, s := range servers {
		if c := roundPrefix(s.Name, codes); c != "" {
			t.Errorf("%s (round %s): the name starts with the round code %q; the round is its Origin", s.Name, s.Origin.Round, c)
		}
	}
}
