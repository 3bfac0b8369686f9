package main

import (
	"io"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/openapitest"
	"github.com/pricing-contract/pricing-contract/steps"
)

// ownDocument edits the document for a variant that chose what the document
// names: such a target describes its own choice.
var ownDocument = map[string]func(doc *openapi3.T){
	// §4.5 does not show the path of the platforms collection.
	"platforms-elsewhere": func(doc *openapi3.T) {
		doc.Paths.Set("/catalogue/platforms", doc.Paths.Value("/platforms"))
		doc.Paths.Delete("/platforms")
	},
}

// documentFor is the exchange validator of /openapi.json for a variant:
// the mock's document, or the variant's own edit of it.
func documentFor(t *testing.T, mock *mockserver.Server, variant string) *openapitest.Validator {
	t.Helper()
	doc, err := openapitest.Load(mock)
	if err != nil {
		t.Fatal(err)
	}
	if own := ownDocument[variant]; own != nil {
		own(doc)
	}
	v, err := openapitest.New(doc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestContractAgainstOpenAPI runs the whole contract suite, @reference
// scenarios included, against the mock behind a middleware that checks every
// exchange against the document the mock serves at /openapi.json. The suite
// drives the mock through its successes and its errors, so a document that
// passes here describes what the mock really answers. (It runs the suite,
// so it lives here rather than in mockserver, which knows nothing of it.)
func TestContractAgainstOpenAPI(t *testing.T) {
	testenv.SkipShort(t, "runs the whole contract suite")
	mock, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mock.Close() })
	v := documentFor(t, mock, "")
	m := mocktarget.MustStart(t, mocktest.Options{Wrap: v.Wrap})
	run := steps.NewSuite(m.Profile, steps.Options{Output: io.Discard}).Run("contract-openapi", godog.Options{
		Format:      "progress",
		Concurrency: 4,
		Randomize:   -1,
	})
	if run.Status != 0 {
		t.Errorf("the contract suite failed against the mock (status %d):\n%s", run.Status, run.Output)
	}

	checked, violations := v.Result()
	// The suite sends several hundred requests; a handful would mean the
	// middleware saw little of it and proved nothing.
	if checked < 300 {
		t.Errorf("only %d exchanges were checked against the document", checked)
	}
	if len(violations) > 0 {
		t.Errorf("%d of %d exchanges disagree with openapi.json:\n%s", len(violations), checked, strings.Join(violations, "\n"))
	}
	t.Logf("%d exchanges checked against openapi.json", checked)
}
