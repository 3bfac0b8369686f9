package match

import (
	"math/big"
	"strings"

	"github.com/tidwall/gjson"
)

// Get is gjson.GetBytes, except that a query comparing a field with a
// number (#(id==N), #(id!=N), and their #(…)# forms) compares the numbers
// exactly. gjson compares numbers as float64, so above 2^53 an id matches
// its neighbours: a server with 64-bit ids would then show another app's
// writeKey as the one asked for. Every other path is gjson's.
func Get(doc []byte, path string) gjson.Result {
	return get(gjson.ParseBytes(doc), path)
}

func get(doc gjson.Result, path string) gjson.Result {
	q, ok := exactQuery(path)
	if !ok {
		if path == "" || path == "@this" {
			return doc
		}
		return doc.Get(path)
	}
	list := doc
	if q.prefix != "" {
		list = doc.Get(q.prefix)
	}
	if !list.IsArray() {
		return gjson.Result{}
	}
	var matches []string
	for _, item := range list.Array() {
		v := item.Get(q.field)
		if v.Type != gjson.Number {
			continue
		}
		if sameNumber(v.Raw, q.value) == (q.op == "==") {
			if !q.all {
				return get(item, q.rest)
			}
			matches = append(matches, item.Raw)
		}
	}
	if !q.all {
		return gjson.Result{}
	}
	all := gjson.Parse("[" + strings.Join(matches, ",") + "]")
	if q.rest == "" {
		return all
	}
	// What follows #(…)# applies to each match, as gjson reads it.
	return get(all, "#."+q.rest)
}

// query is a path split around its first query with a numeric comparison.
type query struct {
	prefix, field, op, value, rest string
	all                            bool // #(…)#: every match, not the first
}

// exactQuery finds the first top-level #(FIELD==N) or #(FIELD!=N) of path,
// N a JSON number; ok is false when path has none (or a modifier or a
// multipath before it, which gjson alone reads).
func exactQuery(path string) (query, bool) {
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '\\':
			i++
			continue
		case '@', '[', '{', '|':
			return query{}, false
		case '#':
			if i+1 >= len(path) || path[i+1] != '(' {
				continue
			}
			end, err := groupEnd(path, i+1)
			if err != nil {
				return query{}, false
			}
			q, ok := numericComparison(path[i+2 : end])
			if !ok {
				// Another kind of query: gjson reads the whole path.
				return query{}, false
			}
			q.prefix = strings.TrimSuffix(path[:i], ".")
			rest := path[end+1:]
			if strings.HasPrefix(rest, "#") {
				q.all, rest = true, rest[1:]
			}
			q.rest = strings.TrimPrefix(rest, ".")
			return q, true
		}
	}
	return query{}, false
}

// numericComparison reads FIELD==N or FIELD!=N, FIELD a plain key path.
func numericComparison(inside string) (query, bool) {
	for _, op := range []string{"==", "!="} {
		field, value, found := strings.Cut(inside, op)
		field, value = strings.TrimSpace(field), strings.TrimSpace(value)
		if !found || field == "" || strings.ContainsAny(field, `!=<>%()[]{}#@"\|`) {
			continue
		}
		if r := gjson.Parse(value); r.Type != gjson.Number || r.Raw != value {
			return query{}, false
		}
		return query{field: field, op: op, value: value}, true
	}
	return query{}, false
}

// sameNumber compares two JSON numbers exactly, whatever their form (1000,
// 1e3 and 1000.0 are one number; 9007199254740993 and 9007199254740992 are
// two).
func sameNumber(a, b string) bool {
	x, _, errA := big.ParseFloat(a, 10, 1024, big.ToNearestEven)
	y, _, errB := big.ParseFloat(b, 10, 1024, big.ToNearestEven)
	return errA == nil && errB == nil && x.Cmp(y) == 0
}
