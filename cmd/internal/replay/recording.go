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
	// Truncated: the journal cut the entry (a body over 64 KiB).
	Truncated bool
}

// Recording is a recording read.
type Recording struct {
	Name     string // the file
	Format   string // "journal" or "HAR"
	Requests []*Request
	// Notes say what the reader noticed: a journal with older pages.
	Notes []string
}

// ReadFile reads a recording from a file.
func ReadFile(path string) (*Recording, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rec, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rec.Name = path
	return rec, nil
}

// Parse reads a recording, journal or HAR.
func Parse(b []byte) (*Recording, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var docs []json.RawMessage
	for {
		var d json.RawMessage
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not JSON: %w (a recording is a HAR file or the journal of GET /__admin/requests)", err)
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil, errors.New("empty: a recording is a HAR file or the journal of GET /__admin/requests")
	}
	var probe struct {
		Log *json.RawMessage `json:"log"`
	}
	if len(docs) == 1 && json.Unmarshal(docs[0], &probe) == nil && probe.Log != nil {
		return parseHAR(docs[0])
	}
	return parseJournal(docs)
}

// journalEntry is one entry of GET /__admin/requests (mockserver/journal.go).
type journalEntry struct {
	ID           int64             `json:"id"`
	Time         time.Time         `json:"time"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Query        string            `json:"query"`
	Headers      map[string]string `json:"headers"`
	Status       int               `json:"status"`
	RequestBody  json.RawMessage   `json:"requestBody"`
	ResponseBody json.RawMessage   `json:"responseBody"`
	Truncated    bool              `json:"truncated"`
}

type journalPage struct {
	Requests *[]journalEntry `json:"requests"`
	Next     int64           `json:"next"`
}

func parseJournal(docs []json.RawMessage) (*Recording, error) {
	rec := &Recording{Format: "journal"}
	byID := map[int64]journalEntry{}
	oldest := int64(0)
	next := int64(0)
	for _, d := range docs {
		var entries []journalEntry
		var page journalPage
		switch {
		case json.Unmarshal(d, &entries) == nil:
		case json.Unmarshal(d, &page) == nil && page.Requests != nil:
			entries = *page.Requests
			if page.Next > 0 && (next == 0 || page.Next < next) {
				next = page.Next
			}
		default:
			return nil, errors.New(`neither a HAR file (no "log") nor the mock's journal (no "requests" of GET /__admin/requests)`)
		}
		for _, e := range entries {
			if e.Method == "" || e.Path == "" {
				return nil, fmt.Errorf("journal entry %d has no method or path: not the mock's journal", e.ID)
			}
			byID[e.ID] = e
			if oldest == 0 || e.ID < oldest {
				oldest = e.ID
			}
		}
	}
	if next > 0 && oldest >= next {
		rec.Notes = append(rec.Notes, fmt.Sprintf("the journal has older entries than those saved (next: %d): save them too with GET /__admin/requests?before=%d, or the replay starts in the middle of the session", next, next))
	}
	ids := make([]int64, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		e := byID[id]
		u := &url.URL{Path: e.Path, RawQuery: e.Query}
		r := &Request{Time: e.Time, Method: e.Method, URL: u, Header: http.Header{}, Status: e.Status, Truncated: e.Truncated}
		for k, v := range e.Headers {
			r.Header.Set(k, v)
		}
		r.Body = journalBody(e.RequestBody)
		r.Answer = journalBody(e.ResponseBody)
		rec.Requests = append(rec.Requests, r)
	}
	number(rec)
	return rec, nil
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

// har is what the replay reads of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/).
type har struct {
	Log struct {
		Entries []struct {
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
		} `json:"entries"`
	} `json:"log"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func parseHAR(doc json.RawMessage) (*Recording, error) {
	var h har
	if err := json.Unmarshal(doc, &h); err != nil {
		return nil, fmt.Errorf("not HAR 1.2: %w", err)
	}
	rec := &Recording{Format: "HAR"}
	for i, e := range h.Log.Entries {
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
		rec.Requests = append(rec.Requests, r)
	}
	// Entries are saved in the order they started, nearly always; a stable
	// sort by that time makes sure.
	sort.SliceStable(rec.Requests, func(i, j int) bool { return rec.Requests[i].Time.Before(rec.Requests[j].Time) })
	number(rec)
	return rec, nil
}

func number(rec *Recording) {
	for i, r := range rec.Requests {
		r.N = i + 1
	}
}
