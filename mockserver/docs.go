package mockserver

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
)

// openapiJSON is the OpenAPI 3.0 description of everything the engine
// serves. It is the one list of routes outside routes.go: the home page and
// closestRoute read it, and docs_test.go checks that it and the engine name
// the same routes. Its server URLs are paths ("/v1", "/"): the document
// served at /openapi.json carries them absolute, on the origin of the
// request that fetched it (openapiFor).
//
//go:embed openapi.json
var openapiJSON []byte

// registerDocs serves the API description and the home page. Neither needs
// credentials; both are for people and tools exploring the mock.
func (s *Server) registerDocs(r *gin.Engine) {
	r.GET("/openapi.json", func(c *gin.Context) {
		c.Data(http.StatusOK, contentTypeJSON, openapiFor(requestOrigin(c.Request)))
	})
	r.GET("/", s.home)
}

// requestOrigin is the scheme and host a client reached the mock at, as it
// wrote them ("http://localhost:8080"): the Host of the request, or, for a
// request without one, the address the mock listens on. "" when neither is
// known.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		if addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			host = addr.String()
		}
	}
	if host == "" {
		return ""
	}
	return scheme + "://" + host
}

// openapiFor is the document with every server URL that is a path made
// absolute on origin, so that a tool that imports it (Postman, Swagger UI,
// a client generator) calls the mock it came from; the document as embedded
// when origin is "".
func openapiFor(origin string) []byte {
	spans := openapiServerURLs()
	if origin == "" || len(spans) == 0 {
		return openapiJSON
	}
	out := make([]byte, 0, len(openapiJSON)+len(spans)*len(origin))
	last := 0
	for _, sp := range spans {
		out = append(out, openapiJSON[last:sp.start]...)
		u := sp.url
		if strings.HasPrefix(u, "/") {
			// The root is the origin itself: a server URL ends without "/".
			u = origin + strings.TrimSuffix(u, "/")
		}
		quoted, _ := json.Marshal(u)
		out = append(out, quoted...)
		last = sp.end
	}
	return append(out, openapiJSON[last:]...)
}

// urlSpan is where one server URL sits in the embedded document: the bytes
// of its JSON string, quotes included, and its value.
type urlSpan struct {
	start, end int
	url        string
}

// openapiServerURLs finds the server URLs of the embedded document once: the
// document's servers and those of each path item. Like docRoutes, it panics
// on a malformed document, which the package's tests catch.
var openapiServerURLs = fromOpenAPI(serverURLSpans)

// fromOpenAPI is what parse reads of the embedded document, read once, on
// the first call; a malformed document panics.
func fromOpenAPI[T any](parse func(doc []byte) (T, error)) func() T {
	return sync.OnceValue(func() T {
		v, err := parse(openapiJSON)
		if err != nil {
			panic("mockserver: openapi.json: " + err.Error())
		}
		return v
	})
}

// serverURLSpans walks the tokens of an OpenAPI document and returns the
// spans of servers[].url and paths.*.servers[].url, in document order.
// Splicing the document there keeps every other byte, and so its order and
// layout, as written.
func serverURLSpans(doc []byte) ([]urlSpan, error) {
	type frame struct {
		key    string // this container's key in its parent; "" in an array
		object bool
		want   bool   // object: the next token is a key
		next   string // object: the key of the value that comes next
	}
	var stack []frame
	var spans []urlSpan
	dec := json.NewDecoder(bytes.NewReader(doc))
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			if len(stack) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return spans, nil
		}
		if err != nil {
			return nil, err
		}
		key := ""
		if n := len(stack); n > 0 && stack[n-1].object {
			top := &stack[n-1]
			if top.want {
				if d, ok := tok.(json.Delim); ok && d == '}' {
					stack = stack[:n-1]
					continue
				}
				top.next, top.want = tok.(string), false
				continue
			}
			key, top.want = top.next, true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{key: key, object: true, want: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{key: key})
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		u, ok := tok.(string)
		n := len(stack)
		server := n == 3 && stack[1].key == "servers" || n == 5 && stack[1].key == "paths" && stack[3].key == "servers"
		if !ok || key != "url" || !server {
			continue
		}
		end := int(dec.InputOffset())
		start := bytes.IndexByte(doc[before:end], '"')
		if start < 0 {
			return nil, fmt.Errorf("no string at offset %d", before)
		}
		spans = append(spans, urlSpan{start: int(before) + start, end: end, url: u})
	}
}

// docRoute is one operation of the document: a method and a gin-style
// template of the full path ("/v1/users/:userId").
type docRoute struct {
	Method   string
	Path     string
	Summary  string
	Auth     bool // the mock needs credentials (spec section 5)
	template []string
}

func (r docRoute) String() string { return r.Method + " " + r.Path }

// docMethods are the operation keys of an OpenAPI path item.
var docMethods = []string{"get", "post", "put", "delete", "patch", "head", "options"}

var paramRE = regexp.MustCompile(`\{([^}]+)\}`)

// docRoutes reads the routes of the embedded document once. The document is
// part of the binary, so a malformed one is a programming error that the
// package's tests catch; it panics rather than serving a wrong list.
var docRoutes = fromOpenAPI(parseDocRoutes)

func parseDocRoutes(doc []byte) ([]docRoute, error) {
	type operation struct {
		Summary  string                 `json:"summary"`
		Security *[]map[string][]string `json:"security"`
	}
	type server struct {
		URL string `json:"url"`
	}
	var d struct {
		Servers  []server                  `json:"servers"`
		Security []map[string][]string     `json:"security"`
		Paths    map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	var routes []docRoute
	for path, item := range d.Paths {
		servers := d.Servers
		if raw, ok := item["servers"]; ok {
			b, _ := json.Marshal(raw)
			servers = nil
			if err := json.Unmarshal(b, &servers); err != nil {
				return nil, fmt.Errorf("servers of %s: %w", path, err)
			}
		}
		for _, m := range docMethods {
			raw, ok := item[m]
			if !ok {
				continue
			}
			b, _ := json.Marshal(raw)
			var op operation
			if err := json.Unmarshal(b, &op); err != nil {
				return nil, fmt.Errorf("%s %s: %w", m, path, err)
			}
			security := d.Security
			if op.Security != nil {
				security = *op.Security
			}
			// An empty requirement ({}) makes credentials optional.
			auth := len(security) > 0 && !slices.ContainsFunc(security, func(r map[string][]string) bool { return len(r) == 0 })
			for _, srv := range servers {
				u, err := url.Parse(srv.URL)
				if err != nil {
					return nil, fmt.Errorf("server of %s: %w", path, err)
				}
				full := strings.TrimSuffix(u.Path, "/") + paramRE.ReplaceAllString(path, ":$1")
				routes = append(routes, docRoute{
					Method:   strings.ToUpper(m),
					Path:     full,
					Summary:  op.Summary,
					Auth:     auth,
					template: strings.Split(full, "/"),
				})
			}
		}
	}
	slices.SortFunc(routes, func(a, b docRoute) int {
		return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method)
	})
	return routes, nil
}

// maxSuggestPath bounds the work of closestRoute: the distance is quadratic,
// and no route of the API is longer than this.
const maxSuggestPath = 200

// closestRoute names the known route closest to an unknown method and path,
// for the 404 answer ("GET /v1/platforms" for GET /v1/platform); "" when
// none is close. The distance is the edit distance between the path and
// each route template, where a :param matches a numeric segment whole, so
// that /v1/user/7 is one edit from /v1/users/:userId. A route of another
// method costs one more, so that among equally close paths the request's
// own method wins.
func closestRoute(method, path string) string {
	if utf8.RuneCountInString(path) > maxSuggestPath {
		return ""
	}
	method = strings.ToUpper(method)
	segs := strings.Split(path, "/")
	best, bestCost := "", -1
	for _, r := range docRoutes() {
		want := instantiate(r.template, segs)
		d := editDistance(strings.ToLower(path), strings.ToLower(want))
		if d > closeEnough(want) {
			continue
		}
		cost := 2 * d
		if r.Method != method {
			cost++
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = r.String(), cost
		}
	}
	return best
}

// closeEnough is the largest distance still worth suggesting: a typo or two,
// more for longer paths, never so many that anything matches.
func closeEnough(route string) int {
	return max(1, min(4, utf8.RuneCountInString(route)/4))
}

var numberRE = regexp.MustCompile(`^[0-9]+$`)

// instantiate writes a route template with each :param replaced by the
// request's segment at the same place when that segment is a number.
func instantiate(template, segs []string) string {
	out := make([]string, len(template))
	for i, t := range template {
		out[i] = t
		if strings.HasPrefix(t, ":") && i < len(segs) && numberRE.MatchString(segs[i]) {
			out[i] = segs[i]
		}
	}
	return strings.Join(out, "/")
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			sub := prev[j-1]
			if ra[i-1] != rb[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
