package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/openapitest"
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

// TestLegalVariantsAgainstOpenAPI shows that /openapi.json describes the
// API, not the mock's choices: every exchange of the spec scenarios with a
// legal variant (a correct implementation that chose otherwise where the
// spec is silent: other ISO 8601 dates, upper-case hex, extra fields,
// optional fields left out, 400 for wrong credentials, ...) validates
// against the document, as the mock's own exchanges do in mockserver's
// TestContractAgainstOpenAPI.
func TestLegalVariantsAgainstOpenAPI(t *testing.T) {
	mock, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mock.Close() })
	for _, lv := range legalVariants {
		t.Run(lv.name, func(t *testing.T) {
			t.Parallel()
			doc, err := openapitest.Load(mock)
			if err != nil {
				t.Fatal(err)
			}
			if own := ownDocument[lv.name]; own != nil {
				own(doc)
			}
			v, err := openapitest.New(doc)
			if err != nil {
				t.Fatal(err)
			}
			wrap := func(next http.Handler) http.Handler { return v.Wrap(lv.wrap(next, func() {})) }
			o := runSpec(defects.Defect{}, wrap, lv.tune)
			switch {
			case o.err != nil:
				t.Fatalf("could not run: %v", o.err)
			case o.failedRun():
				// TestSuitePassesLegalVariants says why; the exchanges are
				// still worth checking.
				t.Errorf("%d of %d spec scenarios failed against the variant", len(o.failed), o.ran)
			}
			checked, violations := v.Result()
			// The spec scenarios send several hundred requests; far fewer
			// would mean the validator saw little of the run.
			if checked < 300 {
				t.Errorf("only %d exchanges were checked against the document", checked)
			}
			if len(violations) > 0 {
				t.Errorf("of %d exchanges with a legal variant, these disagree with /openapi.json (%s):\n%s",
					checked, lv.legal, strings.Join(violations, "\n"))
			}
		})
	}
}
