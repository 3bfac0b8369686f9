package replay

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The first stage: a recording, read. Two formats are accepted, told apart
// by their content:
//
//   - the mock's journal, as GET /__admin/requests answers it (per
//     namespace: add X-Mock-Namespace): {"requests": [...]}, newest first,
//     or a bare array of its entries, or several pages one after another
//     (curl .../requests > f; curl '.../requests?before=N' >> f). Its
//     credentials are masked ("***"), so a journal's accounts are known by
//     what its answers show (accounts.go).
//   - HAR 1.2, as every browser's developer tools save it:
//     log.entries[].request and .response. Its credentials are in clear:
//     they are read to tell the accounts apart, and never sent nor
//     written (secrets.go).
//
// Either way the result is the same: the requests in the order they were
// made, each with the answer the recorded server gave. That answer is not
// the oracle (the reference is); it tells which account a credential was,
// which ids the entities got, and whether a value was accepted.

// Request is one recorded request.
type Request struct {
	N      int // 1-based, in the order the requests were made
	Time   time.Time
	Method string
	// URL is the request's address: absolute in a HAR, a path and a query
	// in a journal (the mock's own).
	URL      *url.URL
	Header   http.Header
	Body     []byte
	Status   int    // the recorded answer's status; 0: none (the request failed)
	Answer   []byte // the recorded answer's body
	Answered string // the recorded answer's Content-Type (HAR)
	// Truncated: the journal cut the entry (a body over 64 KiB), or the
	// replay a string of it (over maxString).
	Truncated bool
	// dropped are the secrets of the body and answer of a request that
	// names no API, which are not kept (reader.keep): the redactor still
	// knows them.
	dropped []string
}

// Recording is a recording read.
type Recording struct {
	Name     string // the file
	Format   string // "journal" or "HAR"
	Requests []*Request
	// Notes say what the reader noticed: a journal with older pages.
	Notes []string
}

// ReadFile reads a recording from a file, as it streams (Read).
func ReadFile(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rec.Name = path
	return rec, nil
}

// Parse reads a recording, journal or HAR, from b.
func Parse(b []byte) (*Recording, error) { return Read(bytes.NewReader(b)) }

// Read reads a recording, journal or HAR, as it streams: one entry at a
// time, each within the bounds of stream.go, keeping of each only what the
// replay needs.
func Read(r io.Reader) (*Recording, error) {
	cut := newCutReader(r)
	rd := &reader{cut: cut, dec: json.NewDecoder(cut), journal: map[int64]*Request{}}
	rd.dec.UseNumber()
	docs := 0
	for {
		t, err := rd.dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, notJSON(err)
		}
		docs++
		switch t {
		case json.Delim('['):
			err = rd.journalEntries()
		case json.Delim('{'):
			err = rd.object(docs)
		default:
			err = errNeither
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case docs == 0:
		return nil, errors.New("empty: a recording is a HAR file or the journal of GET /__admin/requests")
	case rd.har != nil:
		return rd.har, nil
	}
	return rd.journalRecording(), nil
}

var errNeither = errors.New(`neither a HAR file (no "log") nor the mock's journal (no "requests" of GET /__admin/requests)`)

// notJSON is the error of a recording that is no JSON, or cut short; a
// bound's own error is said as it is.
func notJSON(err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("not JSON: %w (a recording is a HAR file or the journal of GET /__admin/requests)", err)
	}
	return err
}

// reader is a recording being read.
type reader struct {
	cut *cutReader
	dec *json.Decoder

	entries int   // read, of every document
	kept    int64 // bytes of bodies and answers kept
	// journal: the entries by id (pages may repeat one), the oldest id, the
	// oldest page's next.
	journal      map[int64]*Request
	oldest, next int64
	har          *Recording
}

// object reads a document that is an object: a HAR (the first and only
// document, with "log") or a page of the journal (with "requests").
func (rd *reader) object(doc int) error {
	isHAR, isPage := false, false
	for rd.dec.More() {
		key, err := rd.key()
		if err != nil {
			return err
		}
		switch {
		case key == "log" && doc == 1 && !isPage:
			isHAR = true
			if err := rd.harLog(); err != nil {
				return err
			}
		case key == "requests" && !isHAR:
			if err := rd.expect('['); err != nil {
				return errNeither
			}
			isPage = true
			if err := rd.journalEntries(); err != nil {
				return err
			}
		case key == "next" && !isHAR:
			var next int64
			rd.cut.mark()
			if err := rd.dec.Decode(&next); err != nil {
				return errNeither
			}
			if next > 0 && (rd.next == 0 || next < rd.next) {
				rd.next = next
			}
		default:
			if err := rd.skip(); err != nil {
				return err
			}
		}
	}
	if _, err := rd.dec.Token(); err != nil { // }
		return notJSON(err)
	}
	if !isHAR && !isPage || isHAR && rd.dec.More() {
		return errNeither
	}
	return nil
}

// key reads an object's key.
func (rd *reader) key() (string, error) {
	t, err := rd.dec.Token()
	if err != nil {
		return "", notJSON(err)
	}
	k, _ := t.(string)
	return k, nil
}

// expect reads the delimiter d.
func (rd *reader) expect(d json.Delim) error {
	t, err := rd.dec.Token()
	if err != nil {
		return notJSON(err)
	}
	if t != d {
		return fmt.Errorf("want %s, found %v", d, t)
	}
	return nil
}

// skip reads past a value, a token at a time: nothing of it is kept.
func (rd *reader) skip() error {
	rd.cut.mark()
	depth := 0
	for {
		t, err := rd.dec.Token()
		if err != nil {
			return notJSON(err)
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// count counts an entry, and refuses one past maxEntries.
func (rd *reader) count() error {
	if rd.entries++; rd.entries > maxEntries {
		return fmt.Errorf("the recording holds more than %d requests: refused (its bounds: %s); save a shorter session", maxEntries, recordingBounds)
	}
	rd.cut.mark()
	return nil
}

// keep keeps what the replay needs of r: all of a request that names the
// API, and of any other its method, address, status, answer type and
// secrets; bodies and answers past maxKept are refused.
func (rd *reader) keep(r *Request) error {
	if rd.cut.wasCut() {
		r.Truncated = true
	}
	if _, _, _, ok := apiPlace(r.URL); !ok {
		r.dropped = dropSecrets(r)
		r.Body, r.Answer = nil, nil
		for name := range r.Header {
			if !pricing.SecretName(name) {
				delete(r.Header, name)
			}
		}
		return nil
	}
	if rd.kept += int64(len(r.Body) + len(r.Answer)); rd.kept > maxKept {
		return fmt.Errorf("the bodies and answers of the recording's API requests pass %d MiB: refused (its bounds: %s); save a shorter session", maxKept>>20, recordingBounds)
	}
	return nil
}

// journalEntries reads the entries of a journal's array, its [ read.
func (rd *reader) journalEntries() error {
	for rd.dec.More() {
		if err := rd.count(); err != nil {
			return err
		}
		var e api.JournalEntry
		if err := rd.dec.Decode(&e); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return notJSON(err)
			}
			if rd.cut.err != nil && !errors.Is(rd.cut.err, io.EOF) {
				return rd.cut.err
			}
			return errNeither
		}
		if e.Method == "" || e.Path == "" {
			return fmt.Errorf("journal entry %d has no method or path: not the mock's journal", e.ID)
		}
		u := &url.URL{Path: e.Path, RawQuery: e.Query}
		r := &Request{Time: e.Time, Method: e.Method, URL: u, Header: http.Header{}, Status: e.Status, Truncated: e.Truncated}
		for k, v := range e.Headers {
			r.Header.Set(k, v)
		}
		r.Body = journalBody(e.RequestBody)
		r.Answer = journalBody(e.ResponseBody)
		if old, ok := rd.journal[e.ID]; ok {
			rd.kept -= int64(len(old.Body) + len(old.Answer)) // a page repeats it
		}
		if err := rd.keep(r); err != nil {
			return err
		}
		rd.journal[e.ID] = r
		if rd.oldest == 0 || e.ID < rd.oldest {
			rd.oldest = e.ID
		}
	}
	_, err := rd.dec.Token() // ]
	return notJSON(err)
}

// journalRecording is the journal read: its requests in the order of their
// ids.
func (rd *reader) journalRecording() *Recording {
	rec := &Recording{Format: "journal"}
	if rd.next > 0 && rd.oldest >= rd.next {
		rec.Notes = append(rec.Notes, fmt.Sprintf("the journal has older entries than those saved (next: %d): save them too with GET /__admin/requests?before=%d, or the replay starts in the middle of the session", rd.next, rd.next))
	}
	ids := make([]int64, 0, len(rd.journal))
	for id := range rd.journal {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		rec.Requests = append(rec.Requests, rd.journal[id])
	}
	number(rec)
	return rec
}

// journalBody is a body as the journal shows it: a JSON value when it was
// JSON, a string when it was not, null when empty.
func journalBody(raw json.RawMessage) []byte {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return []byte(s)
		}
	}
	return t
}

// harEntry is what the replay reads of an entry of HAR 1.2
// (http://www.softwareishard.com/blog/har-12-spec/): log.entries[].
type harEntry struct {
	StartedDateTime time.Time `json:"startedDateTime"`
	Request         struct {
		Method   string      `json:"method"`
		URL      string      `json:"url"`
		Headers  []harHeader `json:"headers"`
		PostData *struct {
			MimeType string      `json:"mimeType"`
			Text     string      `json:"text"`
			Params   []harHeader `json:"params"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int         `json:"status"`
		Headers []harHeader `json:"headers"`
		Content struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// harLog reads a HAR's log, its "log" key read: its entries one at a time,
// anything else skipped.
func (rd *reader) harLog() error {
	rec := &Recording{Format: "HAR"}
	rd.har = rec
	if err := rd.expect('{'); err != nil {
		return fmt.Errorf("not HAR 1.2: log: %w", err)
	}
	for rd.dec.More() {
		key, err := rd.key()
		if err != nil {
			return err
		}
		if key != "entries" {
			if err := rd.skip(); err != nil {
				return err
			}
			continue
		}
		if err := rd.expect('['); err != nil {
			return fmt.Errorf("not HAR 1.2: log.entries: %w", err)
		}
		for i := 0; rd.dec.More(); i++ {
			if err := rd.count(); err != nil {
				return err
			}
			var e harEntry
			if err := rd.dec.Decode(&e); err != nil {
				if rd.cut.err != nil && !errors.Is(rd.cut.err, io.EOF) {
					return rd.cut.err
				}
				return fmt.Errorf("not HAR 1.2: entry %d: %w", i+1, err)
			}
			r, err := harRequest(e, i)
			if err != nil {
				return err
			}
			if err := rd.keep(r); err != nil {
				return err
			}
			rec.Requests = append(rec.Requests, r)
		}
		if _, err := rd.dec.Token(); err != nil { // ]
			return notJSON(err)
		}
	}
	if _, err := rd.dec.Token(); err != nil { // }
		return notJSON(err)
	}
	// Entries are saved in the order they started, nearly always; a stable
	// sort by that time makes sure.
	sort.SliceStable(rec.Requests, func(i, j int) bool { return rec.Requests[i].Time.Before(rec.Requests[j].Time) })
	number(rec)
	return nil
}

// harRequest is entry i (from 0) of a HAR as a request.
func harRequest(e harEntry, i int) (*Request, error) {
	u, err := url.Parse(e.Request.URL)
	if err != nil {
		return nil, fmt.Errorf("entry %d: url %q: %w", i+1, e.Request.URL, err)
	}
	r := &Request{Time: e.StartedDateTime, Method: strings.ToUpper(e.Request.Method), URL: u, Header: http.Header{}, Status: e.Response.Status,
		Answered: e.Response.Content.MimeType}
	for _, hd := range e.Request.Headers {
		if strings.HasPrefix(hd.Name, ":") {
			continue // HTTP/2 pseudo-headers
		}
		r.Header.Add(hd.Name, hd.Value)
	}
	if pd := e.Request.PostData; pd != nil {
		r.Body = []byte(pd.Text)
		if pd.Text == "" && len(pd.Params) > 0 {
			v := url.Values{}
			for _, p := range pd.Params {
				v.Add(p.Name, p.Value)
			}
			r.Body = []byte(v.Encode())
		}
		if r.Header.Get("Content-Type") == "" && pd.MimeType != "" {
			r.Header.Set("Content-Type", pd.MimeType)
		}
	}
	r.Answer = []byte(e.Response.Content.Text)
	if e.Response.Content.Encoding == "base64" {
		if b, err := base64.StdEncoding.DecodeString(e.Response.Content.Text); err == nil {
			r.Answer = b
		}
	}
	return r, nil
}

func number(rec *Recording) {
	for i, r := range rec.Requests {
		r.N = i + 1
	}
}
