package explore

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A body's wire forms are the same JSON value as its plain form (RFC 8259):
// a property of any body, drawn by rapid.
func TestWireFormsAreTheSameValue(t *testing.T) {
	value := rapid.Deferred(func() *rapid.Generator[any] { return jsonValue(3) })
	rapid.Check(t, func(t *rapid.T) {
		body := rapid.MapOfN(rapid.StringMatching(`[a-zA-Z]{1,8}`), value, 1, 6).Draw(t, "body")
		plain, ok := decodeBody(Step{Base: body}.Encode())
		if !ok {
			t.Fatalf("the plain body does not decode: %s", Step{Base: body}.Encode())
		}
		for _, w := range []string{WirePretty, WireReordered, WireEscapes, WireSolidus, WireDuplicate} {
			sent := Step{Base: body, Wire: w}.Encode()
			got, ok := decodeBody(sent)
			if !ok {
				t.Fatalf("%s: no JSON object: %s", w, sent)
			}
			if !reflect.DeepEqual(got, plain) {
				t.Fatalf("%s: %v, the plain body is %v (%s)", w, got, plain, sent)
			}
		}
	})
}

// jsonValue draws a JSON value of at most depth levels, strings of any
// Unicode.
func jsonValue(depth int) *rapid.Generator[any] {
	scalars := []*rapid.Generator[any]{
		rapid.Map(rapid.String(), func(s string) any { return s }),
		rapid.Map(rapid.Int64(), func(n int64) any { return json.Number(rapidItoa(n)) }),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Just[any](nil),
	}
	if depth == 0 {
		return rapid.OneOf(scalars...)
	}
	nested := rapid.Deferred(func() *rapid.Generator[any] { return jsonValue(depth - 1) })
	return rapid.OneOf(append(scalars,
		rapid.Map(rapid.SliceOfN(nested, 0, 3), func(s []any) any { return s }),
		rapid.Map(rapid.MapOfN(rapid.StringMatching(`[a-z]{1,5}`), nested, 0, 3), func(m map[string]any) any { return m }))...)
}

func rapidItoa(n int64) string {
	return json.Number(strings.TrimSpace(string(mustMarshal(n)))).String()
}

func mustMarshal(v any) []byte { b, _ := json.Marshal(v); return b }

// Each wire form is what its operator says.
func TestWireForms(t *testing.T) {
	body := map[string]any{"timezone": "Europe/London", "firstName": "Zoë", "nested": map[string]any{"a": json.Number("1"), "b": true}}
	for _, c := range []struct {
		wire string
		has  []string
		json bool // a JSON object
	}{
		{"", []string{`"firstName":"Zoë"`, `"timezone":"Europe/London"`}, true},
		{WirePretty, []string{"\n{\n\t\"firstName\": \"Zoë\",\n\t", "\n\t\t\"a\": 1", "}\n"}, true},
		{WireReordered, []string{`{"timezone":"Europe/London","nested":{"b":true,"a":1},"firstName"`}, true},
		{WireEscapes, []string{`"firstN\u0061m\u0065":"Zo\u00eb"`}, true},
		{WireSolidus, []string{`"Europe\/London"`}, true},
		{WireDuplicate, []string{`{"firstName":"Zoë","firstName":"Zoë",`}, true},
		{WireUnnamed, []string{`,"contractExtra":"x"}`}, true},
		{WireLarge, []string{`,"contractPadding":"xxxx`}, true},
		{WireNotJSON, []string{`{"firstName": `}, false},
		{WireArray, []string{`["not", "an", "object"]`}, false},
		{WireScalar, []string{`"an object was expected"`}, false},
		{WireNull, []string{`null`}, false},
		{WireDeep, []string{`{"firstName": [[[[`}, true},
	} {
		sent := Step{Base: body, Wire: c.wire}.Encode()
		for _, h := range c.has {
			if !strings.Contains(sent, h) {
				t.Errorf("%s: %.200s has no %q", c.wire, sent, h)
			}
		}
		if _, ok := decodeBody(sent); ok != c.json {
			t.Errorf("%s: a JSON object %v, want %v", c.wire, ok, c.json)
		}
	}
	if n := len(Step{Base: body, Wire: WireLarge}.Encode()); n <= LargePad {
		t.Errorf("the large body is %d bytes", n)
	}
	if n := len(Step{Base: body, Wire: WireDeep}.Encode()); n >= 64<<10 {
		t.Errorf("the deep body is %d bytes: over the size limit, it would test the limit, not the nesting", n)
	}
}

// Escaped values go on the wire as \u escapes and read back as the
// string; astral characters as surrogate pairs.
func TestEscapedValues(t *testing.T) {
	st := Step{Base: map[string]any{"name": "x"}, Muts: []Mutation{{Field: "name", Value: Escaped("a😀")}}}
	sent := st.Encode()
	if sent != `{"name":"\u0061\ud83d\ude00"}` {
		t.Errorf("sent %s", sent)
	}
	if b, _ := decodeBody(sent); b["name"] != "a😀" {
		t.Errorf("read back %q", b["name"])
	}
}

// Mutations set, take out and make the objects on the way; a path through
// a value that is no object is left alone.
func TestPaths(t *testing.T) {
	b := map[string]any{"client": map[string]any{"name": "c"}, "email": "x"}
	SetPath(b, "client.app.name", "a", false)
	SetPath(b, "email.sub", "no", false)
	SetPath(b, "client.name", nil, true)
	got, _ := json.Marshal(b)
	if string(got) != `{"client":{"app":{"name":"a"}},"email":"x"}` {
		t.Errorf("body %s", got)
	}
	if v, ok := GetPath(b, "client.app.name"); !ok || v != "a" {
		t.Errorf("client.app.name is %v %v", v, ok)
	}
}
