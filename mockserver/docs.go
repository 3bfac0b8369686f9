package mockserver

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
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
// the same routes.
//
//go:embed openapi.json
var openapiJSON []byte

// registerDocs serves the API description and the home page. Neither needs
// credentials; both are for people and tools exploring the mock.
func (s *Server) registerDocs(r *gin.Engine) {
	r.GET("/openapi.json", func(c *gin.Context) {
		c.Data(http.StatusOK, contentTypeJSON, openapiJSON)
	})
	r.GET("/", s.home)
}

// docRoute is one operation of the document: a method and a gin-style
// template of the full path ("/v1/users/:userId").
type docRoute struct {
	Method   string
	Path     string
	Summary  string
	Auth     bool // needs credentials (spec section 5)
	template []string
}

func (r docRoute) String() string { return r.Method + " " + r.Path }

// docMethods are the operation keys of an OpenAPI path item.
var docMethods = []string{"get", "post", "put", "delete", "patch", "head", "options"}

var paramRE = regexp.MustCompile(`\{([^}]+)\}`)

// docRoutes reads the routes of the embedded document once. The document is
// part of the binary, so a malformed one is a programming error that the
// package's tests catch; it panics rather than serving a wrong list.
var docRoutes = sync.OnceValue(func() []docRoute {
	routes, err := parseDocRoutes(openapiJSON)
	if err != nil {
		panic("mockserver: openapi.json: " + err.Error())
	}
	return routes
})

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
			for _, srv := range servers {
				full := strings.TrimSuffix(srv.URL, "/") + paramRE.ReplaceAllString(path, ":$1")
				routes = append(routes, docRoute{
					Method:   strings.ToUpper(m),
					Path:     full,
					Summary:  op.Summary,
					Auth:     len(security) > 0,
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
