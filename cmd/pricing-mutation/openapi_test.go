package main

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pricing-contract/pricing-contract/mockserver"
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
