package mockserver

import (
	"encoding/binary"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
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
	// journalSize is how many entries GET /__admin/requests shows, and
	// journalListBytes how much recorded data (the newest first).
	journalSize      = 1000
	journalListBytes = 1 << 20
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
// yet masked. Its fields are packed into one byte slice (see pack), so that
// the ring holds no pointer but one per record: the garbage collector,
// which visits the live journal on every cycle, then has little to do.
type journalRecord struct {
	ns   uint64 // namespace.id; 0 once cleared
	id   int64
	data []byte
}

// journalFields are a record's fields, unpacked.
type journalFields struct {
	time      time.Time
	duration  time.Duration
	status    int
	truncated bool
	method    string
	path      string
	query     string
	reqType   string
	respType  string
	header    []headerField // unpacked; pack reads request instead
	request   http.Header
	reqBody   []byte
	respBody  []byte
}

type headerField struct{ name, value string }

// pack writes the fields, and the request headers within the journal's
// bounds, into one slice; the headers cut or left out make the record
// truncated.
func (f *journalFields) pack() []byte {
	strs := []string{f.method, f.path, f.query, f.reqType, f.respType}
	n := 3*binary.MaxVarintLen64 + 1 + binary.MaxVarintLen64
	for _, s := range strs {
		n += binary.MaxVarintLen64 + len(s)
	}
	// At most this much of the headers is written: enough room, at once.
	headers, values := 0, 0
	for name, vs := range f.request {
		for _, v := range vs {
			headers += len(name) + len(v) + 2*binary.MaxVarintLen64
			values++
		}
	}
	n += min(headers, journalHeadersMax+journalHeaderCount*2*binary.MaxVarintLen64)
	n += 2*binary.MaxVarintLen64 + len(f.reqBody) + len(f.respBody)
	b := make([]byte, 0, n)
	b = binary.AppendVarint(b, f.time.UnixNano())
	b = binary.AppendVarint(b, int64(f.duration))
	b = binary.AppendVarint(b, int64(f.status))
	flag := len(b)
	b = append(b, 0) // truncated, known at the end
	for _, s := range strs {
		b = appendString(b, s)
	}
	truncated := f.truncated
	count, size := 0, 0
	countAt := len(b)
	b = append(b, 0) // the count of headers, at most journalHeaderCount: one byte
	for name, vs := range f.request {
		for _, v := range vs {
			if count == journalHeaderCount || size+len(name) >= journalHeadersMax {
				truncated = true
				break
			}
			v, truncated = cut(v, min(journalHeaderMax, journalHeadersMax-size-len(name)), truncated)
			b = appendString(appendString(b, name), v)
			count++
			size += len(name) + len(v)
		}
	}
	b[countAt] = byte(count)
	if values > count {
		truncated = true
	}
	if truncated {
		b[flag] = 1
	}
	b = appendString(b, f.reqBody)
	return appendString(b, f.respBody)
}

func appendString[S string | []byte](b []byte, s S) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// unpack reads what pack wrote.
func unpack(b []byte) journalFields {
	var f journalFields
	varint := func() int64 {
		v, n := binary.Varint(b)
		b = b[n:]
		return v
	}
	str := func() string {
		l, n := binary.Uvarint(b)
		s := string(b[n : n+int(l)])
		b = b[n+int(l):]
		return s
	}
	f.time = time.Unix(0, varint())
	f.duration = time.Duration(varint())
	f.status = int(varint())
	f.truncated, b = b[0] == 1, b[1:]
	f.method, f.path, f.query, f.reqType, f.respType = str(), str(), str(), str(), str()
	count := b[0]
	b = b[1:]
	for range count {
		f.header = append(f.header, headerField{str(), str()})
	}
	f.reqBody, f.respBody = []byte(str()), []byte(str())
	return f
}

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

// size is what a record costs the journal's byte bound.
func (r *journalRecord) size() int64 { return journalEntryOverhead + int64(cap(r.data)) }

func (j *journal) add(r journalRecord) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for j.n > 0 && (j.n >= j.maxEntries || j.bytes+r.size() > j.maxBytes) {
		j.bytes -= j.ring[j.start].size()
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
	j.bytes += r.size()
}

// list returns a namespace's newest records, newest first, those older than
// the id before only (all when it is 0): within the namespace's newest
// journalSize, and no more than journalListBytes of them, so that reading
// the journal costs a bounded amount of memory too. next is the before of
// the page of older records when some were left out, 0 when none.
func (j *journal) list(ns uint64, before int64) (out []journalRecord, next int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	size := int64(0)
	seen := 0
	for i := j.n - 1; i >= 0; i-- {
		r := j.ring[(j.start+i)%len(j.ring)]
		if r.ns != ns {
			continue
		}
		if seen++; seen > journalSize {
			break
		}
		if before > 0 && r.id >= before {
			continue
		}
		if size += r.size(); size > journalListBytes && len(out) > 0 {
			return out, out[len(out)-1].id
		}
		out = append(out, r)
	}
	return out, 0
}

// clear drops a namespace's records and returns how many it showed.
func (j *journal) clear(ns uint64) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for i := range j.n {
		r := &j.ring[(j.start+i)%len(j.ring)]
		if r.ns == ns {
			j.bytes -= r.size()
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
	bp := restBuffers.Get().(*[4 << 10]byte)
	defer restBuffers.Put(bp)
	buf := bp[:]
	for len(t.kept) < journalBodyMax {
		n, err := t.ReadCloser.Read(buf[:min(len(buf), journalBodyMax+1-len(t.kept))])
		t.keep(buf[:n])
		if err != nil {
			return
		}
	}
}

// restBuffers are the buffers teeBody.rest reads with: most bodies are read
// to their end by the handler, so most reads find nothing.
var restBuffers = sync.Pool{New: func() any { return new([4 << 10]byte) }}

// journalScratch is what recording a request needs until its record is
// packed: reused, so that a request costs one allocation, its record.
type journalScratch struct {
	tee     teeBody
	capture capture
}

var scratches = sync.Pool{New: func() any { return new(journalScratch) }}

// journalRequests records the API request in the journal, after the
// handler: the answer is copied as it is written, the request body as the
// handler reads it.
func (s *Server) journalRequests(c *gin.Context) {
	start := time.Now()
	r := c.Request
	sc := scratches.Get().(*journalScratch)
	sc.tee = teeBody{kept: sc.tee.kept[:0]}
	sc.capture = capture{ResponseWriter: c.Writer, body: sc.capture.body[:0]}
	body := r.Body
	hasBody := body != nil && body != http.NoBody
	if hasBody {
		sc.tee.ReadCloser = body
		r.Body = &sc.tee
	}
	w := &sc.capture
	c.Writer = w
	c.Next()
	c.Writer = w.ResponseWriter

	f := journalFields{
		time:      start,
		duration:  time.Since(start),
		status:    w.Status(),
		truncated: w.truncated,
		method:    r.Method,
		reqType:   r.Header.Get("Content-Type"),
		respType:  w.Header().Get("Content-Type"),
		respBody:  w.body,
		request:   r.Header,
	}
	f.path, f.truncated = cut(r.URL.Path, journalURLMax, f.truncated)
	f.query, f.truncated = cut(r.URL.RawQuery, journalURLMax, f.truncated)
	if hasBody {
		sc.tee.rest()
		f.reqBody, f.truncated = sc.tee.kept, f.truncated || sc.tee.truncated
		r.Body = body
	}
	ns := s.nsFor(c)
	s.journal.add(journalRecord{ns: ns.id, id: ns.journalSeq.Add(1), data: f.pack()})
	sc.tee.ReadCloser, sc.capture.ResponseWriter = nil, nil
	scratches.Put(sc)
}

// cut returns s cut to max bytes, and whether it was cut (or already was).
func cut(s string, max int, already bool) (string, bool) {
	if len(s) <= max {
		return s, already
	}
	return s[:max], true
}

// entry unpacks, masks and shapes a record for the admin API.
func (r journalRecord) entry() api.JournalEntry {
	f := unpack(r.data)
	return api.JournalEntry{
		ID:           r.id,
		Time:         f.time.UTC(),
		Method:       f.method,
		Path:         f.path,
		Query:        maskQuery(f.query),
		Headers:      maskHeaders(f.header),
		Status:       f.status,
		DurationMs:   float64(f.duration.Microseconds()) / 1000,
		RequestBody:  maskBody(f.reqBody, f.reqType),
		ResponseBody: maskBody(f.respBody, f.respType),
		Truncated:    f.truncated,
	}
}
