package replay

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
)

// The second stage, first half: which recorded requests are the API's. A
// HAR holds everything a page loaded (its HTML, scripts, styles, fonts,
// other APIs, analytics); a journal holds the mock's API requests only.
// The API base of a recording is the scheme, host and path up to the
// version segment under which its requests name the API's resources
// (/v1/users/1), the one most of them use, or --api-base. A request
// elsewhere is listed with why, and never sent.

// apiResources are the first segments of the API's paths below the
// version, the spec's and the mock's read extensions: the heads of the
// reference's route table.
var apiResources = func() map[string]bool {
	out := map[string]bool{}
	for _, r := range api.Routes() {
		head, _, _ := strings.Cut(strings.TrimPrefix(r.Pattern, "/"), "/")
		out[head] = true
	}
	return out
}()

var versionSegment = regexp.MustCompile(`^v[0-9]+(\.[0-9]+)*$`)

// base is a recording's API base.
type base struct {
	origin  string // scheme://host[:port]; "" for a journal (the mock's own)
	prefix  string // the path before the version segment: "" or "/pricing"
	version string // v1
}

func (b base) String() string { return b.origin + b.prefix + "/" + b.version }

// apiPlace splits a URL's path into the prefix before a version segment
// that names an API resource, the version and the rest; ok false where
// none does.
func apiPlace(u *url.URL) (prefix, version, rest string, ok bool) {
	segs := strings.Split(u.EscapedPath(), "/")
	for i := 1; i+1 < len(segs); i++ {
		if versionSegment.MatchString(segs[i]) && apiResources[segs[i+1]] {
			return strings.Join(segs[:i], "/"), segs[i], "/" + strings.Join(segs[i+1:], "/"), true
		}
	}
	return "", "", "", false
}

func originOf(u *url.URL) string {
	if u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// findBase is the API base most of the recording's requests use, or the
// one given.
func findBase(rec *Recording, given string) (base, error) {
	if given != "" {
		u, err := url.Parse(strings.TrimRight(given, "/"))
		if err != nil {
			return base{}, fmt.Errorf("--api-base %q: %v", given, err)
		}
		dir, v := path.Split(u.Path)
		if !versionSegment.MatchString(v) {
			return base{}, fmt.Errorf("--api-base %q: ends with no version segment (v1, v1.0)", given)
		}
		return base{origin: originOf(u), prefix: strings.TrimRight(dir, "/"), version: v}, nil
	}
	count := map[base]int{}
	var order []base
	for _, r := range rec.Requests {
		prefix, v, _, ok := apiPlace(r.URL)
		if !ok || r.Method == "OPTIONS" {
			continue
		}
		b := base{origin: originOf(r.URL), prefix: prefix, version: v}
		if count[b] == 0 {
			order = append(order, b)
		}
		count[b]++
	}
	if len(order) == 0 {
		return base{}, fmt.Errorf("no request of the recording names the API (a path like /v1/users/1): give --api-base")
	}
	best := order[0]
	for _, b := range order {
		if count[b] > count[best] {
			best = b
		}
	}
	return best, nil
}

// staticExt are the extensions of files a page loads.
var staticExt = map[string]bool{".html": true, ".htm": true, ".js": true, ".mjs": true, ".css": true, ".map": true, ".png": true,
	".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".ico": true, ".webp": true, ".avif": true, ".woff": true,
	".woff2": true, ".ttf": true, ".otf": true, ".eot": true, ".txt": true, ".xml": true, ".webmanifest": true, ".wasm": true, ".json": true}

// outside says why a request is not the API's at the base ("" it is), and
// otherwise returns its version segment and its path below it.
func (b base) place(r *Request) (version, rest, why string) {
	u := r.URL
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return "", "", fmt.Sprintf("not an HTTP request (%s:)", u.Scheme)
	}
	if r.Method == "OPTIONS" {
		return "", "", "a CORS preflight (OPTIONS): the browser's, not the frontend's"
	}
	if o := originOf(u); b.origin != "" && o != "" && !strings.EqualFold(o, b.origin) {
		return "", "", "another host than the API's (" + u.Host + ")"
	}
	p := u.Path
	if p == "/__admin" || strings.HasPrefix(p, "/__admin/") {
		return "", "", "the mock's admin API"
	}
	prefix, v, rest, ok := apiPlace(u)
	if ok && prefix == b.prefix {
		return v, rest, ""
	}
	ext := strings.ToLower(path.Ext(p))
	if staticExt[ext] || p == "/" || p == "" || staticType(r.Answered) {
		return "", "", "a static file (" + displayPath(r) + ")"
	}
	return "", "", "not under the API base " + b.String()
}

// staticType reports whether an answer's media type is a page's asset.
func staticType(mt string) bool {
	mt = strings.ToLower(mt)
	for _, p := range []string{"text/html", "text/css", "javascript", "image/", "font/", "text/plain"} {
		if strings.Contains(mt, p) {
			return true
		}
	}
	return false
}

// displayPath is a request's address as the reports show it: the host (of
// a HAR) and the path, never the query (it may carry a sessionToken).
func displayPath(r *Request) string {
	return r.URL.Host + r.URL.EscapedPath()
}
