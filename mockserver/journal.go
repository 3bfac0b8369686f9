package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// journalSize is how many requests a journal keeps; older ones are dropped.
const journalSize = 1000

// journalBodyMax bounds each body a journal entry keeps.
const journalBodyMax = 64 << 10

// masked replaces every credential and password in the journal.
const masked = "***"

// journalEntry is one API request as GET /__admin/requests shows it. Bodies
// are JSON values when they parse as JSON, strings otherwise, null when
// empty.
type journalEntry struct {
	ID           int64             `json:"id"`
	Time         time.Time         `json:"time"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Query        string            `json:"query"`
	Headers      map[string]string `json:"headers"`
	Status       int               `json:"status"`
	DurationMs   float64           `json:"durationMs"`
	RequestBody  json.RawMessage   `json:"requestBody"`
	ResponseBody json.RawMessage   `json:"responseBody"`
	Truncated    bool              `json:"truncated,omitempty"`
}

// journal is a bounded ring of entries; safe for concurrent use.
type journal struct {
	mu      sync.Mutex
	entries []journalEntry // oldest first
	next    int64
}

func (j *journal) add(e journalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.next++
	e.ID = j.next
	if len(j.entries) == journalSize {
		copy(j.entries, j.entries[1:])
		j.entries = j.entries[:journalSize-1]
	}
	j.entries = append(j.entries, e)
}

// list returns the entries, newest first.
func (j *journal) list() []journalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]journalEntry, len(j.entries))
	for i, e := range j.entries {
		out[len(out)-1-i] = e
	}
	return out
}

func (j *journal) clear() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.entries)
	j.entries = nil
	return n
}

// capture is a gin.ResponseWriter that keeps a copy of the body written.
type capture struct {
	gin.ResponseWriter
	body      bytes.Buffer
	truncated bool
}

func (w *capture) Write(b []byte) (int, error) {
	w.keep(b)
	return w.ResponseWriter.Write(b)
}

func (w *capture) WriteString(s string) (int, error) {
	w.keep([]byte(s))
	return w.ResponseWriter.WriteString(s)
}

func (w *capture) keep(b []byte) {
	room := journalBodyMax - w.body.Len()
	if len(b) > room {
		b, w.truncated = b[:max(room, 0)], true
	}
	w.body.Write(b)
}

// journalRequests records the API request in its namespace's journal. The
// body is read up front (bounded) and given back to the handler unchanged.
func (s *Server) journalRequests(c *gin.Context) {
	start := time.Now()
	var reqBody []byte
	truncated := false
	if c.Request.Body != nil && c.Request.Body != http.NoBody {
		head, err := io.ReadAll(io.LimitReader(c.Request.Body, journalBodyMax+1))
		if err == nil {
			truncated = len(head) > journalBodyMax
			reqBody = head[:min(len(head), journalBodyMax)]
		}
		c.Request.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), c.Request.Body), c.Request.Body}
	}
	w := &capture{ResponseWriter: c.Writer}
	c.Writer = w
	c.Next()
	c.Writer = w.ResponseWriter

	r := c.Request
	s.nsFor(c).journal.add(journalEntry{
		Time:         start.UTC(),
		Method:       r.Method,
		Path:         r.URL.Path,
		Query:        maskQuery(r.URL.RawQuery),
		Headers:      maskHeaders(r.Header),
		Status:       w.Status(),
		DurationMs:   float64(time.Since(start).Microseconds()) / 1000,
		RequestBody:  maskBody(reqBody, r.Header.Get("Content-Type")),
		ResponseBody: maskBody(w.body.Bytes(), w.Header().Get("Content-Type")),
		Truncated:    truncated || w.truncated,
	})
}

// secretKeys are the JSON fields and form fields whose values are masked
// (compared in lower case).
var secretKeys = map[string]bool{"password": true, "token": true, "sessiontoken": true, "apikey": true, "authorization": true}

// secretFieldRE finds secret string fields in a body that does not parse as
// JSON, so that a malformed login body does not leak its password.
var secretFieldRE = regexp.MustCompile(`(?i)("(?:password|token|sessionToken|apiKey)"\s*:\s*)"(?:[^"\\]|\\.)*"?`)

func maskQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		k, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(k); err == nil && secretKeys[strings.ToLower(name)] {
			parts[i] = k + "=" + masked
		}
	}
	return strings.Join(parts, "&")
}

func maskHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, vs := range h {
		v := strings.Join(vs, ", ")
		switch strings.ToLower(k) {
		case "authorization":
			// The scheme word stays: "api-key ***" tells which scheme was used.
			if scheme, _, ok := strings.Cut(strings.TrimSpace(v), " "); ok {
				v = scheme + " " + masked
			} else {
				v = masked
			}
		case "session-token", "cookie", "proxy-authorization":
			v = masked
		}
		out[k] = v
	}
	return out
}

// maskBody returns a body as a JSON value with its secrets masked.
func maskBody(b []byte, contentType string) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) == nil && !dec.More() {
		// Re-encoding sorts the keys; a body without secrets keeps its order.
		if !maskJSON(v) {
			var buf bytes.Buffer
			if json.Compact(&buf, b) == nil {
				return buf.Bytes()
			}
		}
		if out, err := json.Marshal(v); err == nil {
			return out
		}
	}
	text := string(b)
	if strings.HasPrefix(contentType, "application/x-www-form-urlencoded") {
		text = maskQuery(text)
	} else {
		text = secretFieldRE.ReplaceAllString(text, `${1}"`+masked+`"`)
	}
	out, _ := json.Marshal(strings.ToValidUTF8(text, "\uFFFD"))
	return out
}

// maskJSON masks the secrets of a decoded JSON value in place and reports
// whether it found any.
func maskJSON(v any) bool {
	found := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if secretKeys[strings.ToLower(k)] {
				if e != nil {
					x[k] = masked
					found = true
				}
				continue
			}
			found = maskJSON(e) || found
		}
	case []any:
		for _, e := range x {
			found = maskJSON(e) || found
		}
	}
	return found
}
