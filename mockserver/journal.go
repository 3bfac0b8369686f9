package mockserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// The journal records API requests for GET /__admin/requests. Recording is
// on the path of every request, so it only copies, within bounds: the
// masking of secrets and the encoding to JSON wait until the journal is
// read (mask.go).
//
// One ring holds the entries of every namespace, so that the journal stays
// within Limits.JournalEntries and Limits.JournalBytes however many
// namespaces there are; the oldest entry goes first, whichever namespace it
// is of. Each namespace shows its newest journalSize.
const (
	// journalSize is how many entries GET /__admin/requests shows.
	journalSize = 1000
	// What one entry keeps of a request; more is cut, and the entry says
	// "truncated": true.
	journalBodyMax       = 64 << 10 // each body, request and answer
	journalURLMax        = 2 << 10  // the path, and the query
	journalHeaderMax     = 1 << 10  // each header value
	journalHeadersMax    = 8 << 10  // all header names and values
	journalHeaderCount   = 64       // header values
	journalEntryOverhead = 256      // the entry itself, in the ring
)

// masked replaces every credential and password in the journal.
const masked = "***"

// journalRecord is one API request as recorded: copied, bounded, and not
// yet masked.
type journalRecord struct {
	ns        uint64 // namespace.id; 0 once cleared
	id        int64
	time      time.Time
	method    string
	path      string
	query     string
	header    []headerField
	status    int
	duration  time.Duration
	reqType   string
	reqBody   []byte
	respType  string
	respBody  []byte
	truncated bool
	size      int64
}

type headerField struct{ name, value string }

// journal is the ring of records; safe for concurrent use. Records are
// never changed once added (clear drops them), so readers may use them
// after the lock is released.
type journal struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	ring  []journalRecord // grows to maxEntries
	start int             // the oldest record
	n     int
	bytes int64
}

func (j *journal) add(r journalRecord) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for j.n > 0 && (j.n >= j.maxEntries || j.bytes+r.size > j.maxBytes) {
		j.bytes -= j.ring[j.start].size
		j.ring[j.start] = journalRecord{}
		j.start = (j.start + 1) % len(j.ring)
		j.n--
	}
	if j.n == len(j.ring) {
		// Grow by doubling up to maxEntries, the oldest first again.
		grown := make([]journalRecord, min(max(2*len(j.ring), 64), j.maxEntries))
		for i := range j.n {
			grown[i] = j.ring[(j.start+i)%len(j.ring)]
		}
		j.ring, j.start = grown, 0
	}
	j.ring[(j.start+j.n)%len(j.ring)] = r
	j.n++
	j.bytes += r.size
}

// list returns a namespace's newest records, newest first, at most limit.
func (j *journal) list(ns uint64, limit int) []journalRecord {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []journalRecord
	for i := j.n - 1; i >= 0 && len(out) < limit; i-- {
		if r := j.ring[(j.start+i)%len(j.ring)]; r.ns == ns {
			out = append(out, r)
		}
	}
	return out
}

// clear drops a namespace's records and returns how many it showed.
func (j *journal) clear(ns uint64) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for i := range j.n {
		r := &j.ring[(j.start+i)%len(j.ring)]
		if r.ns == ns {
			j.bytes -= r.size
			*r = journalRecord{}
			n++
		}
	}
	return min(n, journalSize)
}

// usage is what the journal holds: records (cleared ones included until
// they leave the ring) and their bytes.
func (j *journal) usage() (int, int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.n, j.bytes
}

// capture is a gin.ResponseWriter that keeps a copy of the first
// journalBodyMax bytes of the body written.
type capture struct {
	gin.ResponseWriter
	body      []byte
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
	room := journalBodyMax - len(w.body)
	if len(b) > room {
		b, w.truncated = b[:room], true
	}
	if w.body == nil {
		// Most answers are written at once: one allocation of their size.
		w.body = make([]byte, 0, len(b))
	}
	w.body = append(w.body, b...)
}

// teeBody keeps a copy of the first journalBodyMax bytes of a request body
// as the handler reads it.
type teeBody struct {
	io.ReadCloser
	kept      []byte
	eof       bool
	truncated bool
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.keep(p[:n])
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

func (t *teeBody) keep(b []byte) {
	room := journalBodyMax - len(t.kept)
	if len(b) > room {
		b, t.truncated = b[:room], true
	}
	t.kept = append(t.kept, b...)
}

// rest reads what the handler left of the body, up to the journal's bound,
// so that the entry shows the body of a request refused before it was read.
func (t *teeBody) rest() {
	if t.eof || t.truncated {
		return
	}
	buf := make([]byte, 4<<10)
	for len(t.kept) < journalBodyMax {
		n, err := t.ReadCloser.Read(buf[:min(len(buf), journalBodyMax+1-len(t.kept))])
		t.keep(buf[:n])
		if err != nil {
			return
		}
	}
}

// journalRequests records the API request in the journal, after the
// handler: the answer is copied as it is written, the request body as the
// handler reads it.
func (s *Server) journalRequests(c *gin.Context) {
	start := time.Now()
	r := c.Request
	var tee *teeBody
	if r.Body != nil && r.Body != http.NoBody {
		tee = &teeBody{ReadCloser: r.Body}
		if n := r.ContentLength; n > 0 {
			tee.kept = make([]byte, 0, min(n, journalBodyMax))
		}
		r.Body = tee
	}
	w := &capture{ResponseWriter: c.Writer}
	c.Writer = w
	c.Next()
	c.Writer = w.ResponseWriter

	ns := s.nsFor(c)
	rec := journalRecord{
		ns:        ns.id,
		id:        ns.journalSeq.Add(1),
		time:      start,
		method:    r.Method,
		status:    w.Status(),
		duration:  time.Since(start),
		reqType:   r.Header.Get("Content-Type"),
		respType:  w.Header().Get("Content-Type"),
		respBody:  w.body,
		truncated: w.truncated,
	}
	rec.path, rec.truncated = cut(r.URL.Path, journalURLMax, rec.truncated)
	rec.query, rec.truncated = cut(r.URL.RawQuery, journalURLMax, rec.truncated)
	if tee != nil {
		tee.rest()
		rec.reqBody, rec.truncated = tee.kept, rec.truncated || tee.truncated
	}
	var headersCut bool
	rec.header, rec.size, headersCut = copyHeaders(r.Header)
	rec.truncated = rec.truncated || headersCut
	rec.size += journalEntryOverhead + int64(len(rec.method)+len(rec.path)+len(rec.query)+len(rec.reqType)+len(rec.respType)+
		cap(rec.reqBody)+cap(rec.respBody))
	s.journal.add(rec)
}

// cut returns s cut to max bytes, copied when cut so that the entry does
// not keep the whole of s alive, and whether it was cut (or already was).
func cut(s string, max int, already bool) (string, bool) {
	if len(s) <= max {
		return s, already
	}
	return strings.Clone(s[:max]), true
}

// copyHeaders copies a request's headers within the journal's bounds, and
// returns them with their size and whether any was cut or left out.
func copyHeaders(h http.Header) ([]headerField, int64, bool) {
	n := 0
	for _, vs := range h {
		n += len(vs)
	}
	out := make([]headerField, 0, min(n, journalHeaderCount))
	var size int64
	truncated := false
	for name, vs := range h {
		for _, v := range vs {
			if len(out) == journalHeaderCount || size+int64(len(name)) >= journalHeadersMax {
				return out, size + int64(cap(out))*32, true
			}
			room := min(journalHeaderMax, journalHeadersMax-int(size)-len(name))
			v, truncated = cut(v, room, truncated)
			out = append(out, headerField{name, v})
			size += int64(len(name) + len(v))
		}
	}
	return out, size + int64(cap(out))*32, truncated
}

// journalEntry is one API request as GET /__admin/requests shows it. Bodies
// are JSON values when they parse as JSON, strings otherwise, null when
// empty; secrets are masked (mask.go).
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

// entry masks and shapes a record for the admin API.
func (r journalRecord) entry() journalEntry {
	return journalEntry{
		ID:           r.id,
		Time:         r.time.UTC(),
		Method:       r.method,
		Path:         r.path,
		Query:        maskQuery(r.query),
		Headers:      maskHeaders(r.header),
		Status:       r.status,
		DurationMs:   float64(r.duration.Microseconds()) / 1000,
		RequestBody:  maskBody(r.reqBody, r.reqType),
		ResponseBody: maskBody(r.respBody, r.respType),
		Truncated:    r.truncated,
	}
}
