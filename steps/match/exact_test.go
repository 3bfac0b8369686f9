package match

import "testing"

func TestGetComparesIDsExactly(t *testing.T) {
	doc := []byte(`{"apps":[
		{"id":9007199254740992,"writeKey":"neighbour"},
		{"id":9007199254740993,"writeKey":"mine"},
		{"id":12,"writeKey":"small","platform":{"id":1e3}}
	]}`)
	tests := []struct {
		path, want string
	}{
		// gjson alone answers "neighbour" here: both ids are one float64.
		{`apps.#(id==9007199254740993).writeKey`, `"mine"`},
		{`apps.#(id==9007199254740992).writeKey`, `"neighbour"`},
		{`apps.#(id==9007199254740994).writeKey`, ``},
		{`apps.#(id!=9007199254740992)#.writeKey`, `["mine","small"]`},
		{`apps.#(id==9007199254740993)#.writeKey`, `["mine"]`},
		{`apps.#(platform.id==1000).writeKey`, `"small"`},
		{`apps.#(id==12)`, `{"id":12,"writeKey":"small","platform":{"id":1e3}}`},
		// Not a numeric comparison: gjson's own reading.
		{`apps.#(writeKey=="small").id`, `12`},
		{`apps.#.id`, `[9007199254740992,9007199254740993,12]`},
		{`apps.1.writeKey`, `"mine"`},
	}
	for _, tt := range tests {
		if got := Get(doc, tt.path).Raw; got != tt.want {
			t.Errorf("Get(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
}
