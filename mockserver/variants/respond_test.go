package variants_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// TestKeepBodiesKeepEveryField ties UserBody and ClientBody (respond.go),
// with which a server of the catalogue writes a resource back, to the field
// tables: a resource whose every field a PUT stores has a value, written
// back with the body made of its answer, answers the same. A field the
// bodies left out would be cleared (or, required, refused).
func TestKeepBodiesKeepEveryField(t *testing.T) {
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, path string, body any) (int, any) {
		t.Helper()
		var raw []byte
		if body != nil {
			raw, _ = json.Marshal(body)
		}
		req := httptest.NewRequest(method, "/v1"+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "api-key qa-api-key")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var v any
		_ = json.Unmarshal(rec.Body.Bytes(), &v)
		return rec.Code, v
	}
	object := func(path string) map[string]any {
		t.Helper()
		st, v := do(http.MethodGet, path, nil)
		o, ok := v.(map[string]any)
		if st != http.StatusOK || !ok {
			t.Fatalf("GET %s: %d %v", path, st, v)
		}
		return o
	}
	for _, tc := range []struct {
		path  string
		table *pricing.Table
		keep  func(map[string]any) map[string]any
	}{
		{"/users/1", pricing.UserBody, variants.UserBody},
		{"/clients/1", pricing.ClientBody, variants.ClientBody},
	} {
		t.Run(tc.path, func(t *testing.T) {
			full := map[string]any{}
			for _, f := range tc.table.Leaves() {
				if v, ok := storedValue(f); ok && (f.Stored() || f.Required) {
					variants.SetBodyPath(full, f.Path, v)
				}
			}
			if st, o := do(http.MethodPut, tc.path, full); st != http.StatusOK {
				t.Fatalf("PUT %s with every field set: %d %v", tc.path, st, o)
			}
			before := object(tc.path)
			if st, o := do(http.MethodPut, tc.path, tc.keep(before)); st != http.StatusOK {
				t.Fatalf("PUT %s of the body that keeps it: %d %v", tc.path, st, o)
			}
			after := object(tc.path)
			for k, v := range before {
				if !reflect.DeepEqual(after[k], v) {
					t.Errorf("%s: written back, %s went from %v to %v: the keep body (mockserver/variants/respond.go) lost it", tc.path, k, v, after[k])
				}
			}
		})
	}
}

// storedValue is a valid value of f other than the seed's.
func storedValue(f pricing.Field) (any, bool) {
	switch {
	case f.Path == "terms":
		return "I agree", true
	case f.Put == pricing.PutNullKeeps:
		return nil, true
	case f.Type == pricing.TypeNumber:
		return 2, true // the second entry of the catalogue
	case f.Type == pricing.TypeBoolean:
		return true, true
	case f.Form == pricing.FormEmail:
		return "kept@example.com", true
	case f.Form == pricing.FormTimezone:
		return "Europe/Kept", true
	case f.Form == pricing.FormUnstated:
		return "4242", true // digits: a phone number and extension too
	case f.Type == pricing.TypeString:
		return "kept " + f.Path, true
	}
	return nil, false
}

// TestLimitOfIsEveryBodys: the variants' length helpers (fields.go) find a
// field's limit by its name alone, which holds while a name has one limit
// in every body that has it.
func TestLimitOfIsEveryBodys(t *testing.T) {
	for _, table := range pricing.Bodies() {
		for _, f := range table.Fields {
			if f.Max > 0 {
				if got := variants.LimitOf(f.Path); got != f.Max {
					t.Errorf("%s: %s is limited to %d, but LimitOf finds %d in another body: give the variants' helpers the body", table.Name, f.Path, f.Max, got)
				}
			}
		}
	}
}
