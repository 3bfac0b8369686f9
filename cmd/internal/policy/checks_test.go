package policy

import (
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

// Every check of the oracle is decided, citing words of the spec that are
// there, or silent; and it is in the table once.
func TestEveryCheckIsDecidedOrSilent(t *testing.T) {
	ids := map[string]bool{}
	silent := 0
	for _, c := range Checks() {
		if ids[c.ID] {
			t.Errorf("two checks are named %s", c.ID)
		}
		ids[c.ID] = true
		if c.What == "" {
			t.Errorf("check %s says nothing of what it judges", c.ID)
		}
		if c.Silent() {
			silent++
			if c.Decided != (Cite{}) {
				t.Errorf("check %s cites half a sentence (%+v): a cite is a section and its words", c.ID, c.Decided)
			}
			continue
		}
		if err := Verify(c.Decided, fixtures.Spec()); err != nil {
			t.Errorf("check %s: %v", c.ID, err)
		}
	}
	if silent == len(Checks()) {
		t.Fatal("every check is silent")
	}
}

// Verify refuses words the spec does not have, and words of another section.
func TestVerifyRefusesWhatTheSpecDoesNotSay(t *testing.T) {
	spec := fixtures.Spec()
	for _, c := range []Cite{
		{Section: "2.1", Words: "The password is never returned."},
		{Section: "4", Words: "Every endpoint below returns HTTP 200 on success."},
		{Section: "4.2, 7.3", Words: "No app name was provided"},
		{Section: "7", Words: "Name of the offending body field"}, // 7.1 is a subsection of 7
	} {
		if err := Verify(c, spec); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	for _, c := range []Cite{
		{Section: "2.1", Words: "The password is sometimes returned."},
		{Section: "2.2", Words: "The password is never returned."}, // another section's words
		{Section: "2.1"},
		{Words: "The password is never returned."},
	} {
		if err := Verify(c, spec); err == nil {
			t.Errorf("%+v verified", c)
		}
	}
	if !strings.Contains(Cite{Section: "5", Words: "x.", Also: "RFC 9110 11.1"}.String(), "RFC 9110 11.1") {
		t.Error("a cite's string leaves out its standard")
	}
}
