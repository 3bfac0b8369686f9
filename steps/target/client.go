package target

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
	"unicode/utf8"
)

// The one HTTP client of every tool that talks to a target (the suite and
// its preflight, init, explore, replay, the mutation runner): the target
// may be any server, a misconfigured proxy or a hostile one, and the tools
// carry QA's passwords and api keys to it. So:
//
//   - no redirect is followed: a 3xx is an answer like any other, which the
//     tools report with its Location (RedirectError). Go's client re-sends a
//     body on 307 and 308 and strips only Authorization across hosts: a
//     login's password would reach the other host.
//   - every answer is bounded: its head to MaxAnswerHead, its body to
//     MaxAnswer, its whole exchange, the body read included, to the timeout;
//     a JSON body (one that starts with {, [ or ") nesting deeper than
//     MaxNesting or not valid UTF-8 is refused as it is read, before any
//     parser sees it. A refused answer is an *AnswerError from the body's
//     Read, so every reader of the body (resty, io.ReadAll) fails with it.

// The bounds of an answer, stated in --help and the README ("Limits and
// security").
const (
	// MaxAnswer is the most of an answer's body a tool reads: the API's
	// largest answer is a few KiB.
	MaxAnswer = 4 << 20
	// MaxAnswerHead is the most of an answer's status line and headers.
	MaxAnswerHead = 64 << 10
	// MaxNesting is the deepest nesting of arrays and objects in a JSON
	// answer: the API's answers nest 3 deep.
	MaxNesting = 64
)

// DefaultTimeout bounds one request of every tool, connection, head and
// body included: long enough for a slow staging server, short enough that a
// hung one is found in seconds. --timeout changes it.
const DefaultTimeout = 10 * time.Second

// BoundsText says the bounds in words, for --help.
var BoundsText = fmt.Sprintf("no redirect is followed (a 3xx is reported with its Location); an answer is read up to %d MiB of body and %d KiB of head, "+
	"within --timeout, body included; a JSON answer nested deeper than %d levels or not valid UTF-8 is refused",
	MaxAnswer>>20, MaxAnswerHead>>10, MaxNesting)

// transport is the connections every client shares: more idle connections
// to one host than Go's default of two, so that the requests of a
// concurrent run (and of the preflight of a pool) reuse them rather than
// open one each, with a TLS handshake against a remote target.
var transport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 256
	t.MaxResponseHeaderBytes = MaxAnswerHead
	return t
}()

// NewClient is the client of a tool toward a target: no redirect followed,
// every answer bounded (see above), each request within timeout (0:
// DefaultTimeout), the body read included.
func NewClient(timeout time.Duration) *http.Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &http.Client{
		Timeout:       timeout,
		Transport:     Bounded(transport),
		CheckRedirect: refuseRedirect,
	}
}

// Bounded makes next's answers bounded as NewClient's are, for a transport
// that wraps the shared one (steps' watch of a run) or a test's.
func Bounded(next http.RoundTripper) http.RoundTripper { return &bounded{next: next} }

// refuseRedirect makes a 3xx the answer.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// RedirectError is a 3xx answer where a tool needed another: no redirect is
// followed, so it says where the target pointed.
type RedirectError struct {
	Method, URL string
	Status      int
	Location    string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s %s answered %d, a redirect to %q: no redirect is followed (it would carry the credentials elsewhere); give the address the target answers at",
		e.Method, e.URL, e.Status, e.Location)
}

// Redirected is a *RedirectError for a 3xx answer to method url, else nil.
func Redirected(method, url string, status int, header http.Header) error {
	if status < 300 || status > 399 {
		return nil
	}
	return &RedirectError{Method: method, URL: url, Status: status, Location: header.Get("Location")}
}

// AnswerError is an answer refused as it was read: too large, or a JSON
// body nested too deep or not UTF-8.
type AnswerError struct{ Reason string }

func (e *AnswerError) Error() string { return "answer refused: " + e.Reason }

var (
	errTooLarge = &AnswerError{Reason: fmt.Sprintf("its body is over %d MiB (the most any answer is read)", MaxAnswer>>20)}
	errNesting  = &AnswerError{Reason: fmt.Sprintf("its JSON nests deeper than %d arrays and objects", MaxNesting)}
	errUTF8     = &AnswerError{Reason: "its JSON is not valid UTF-8"}
)

// IsAnswerError reports whether err is, or wraps, a refused answer.
func IsAnswerError(err error) bool {
	var a *AnswerError
	return errors.As(err, &a)
}

type bounded struct{ next http.RoundTripper }

func (b *bounded) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.next.RoundTrip(req)
	if err != nil || resp.Body == nil || resp.Body == http.NoBody {
		return resp, err
	}
	resp.Body = &boundedBody{rc: resp.Body, left: MaxAnswer}
	return resp, nil
}

// CloseIdleConnections passes on, so that http.Client's does.
func (b *bounded) CloseIdleConnections() {
	if c, ok := b.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// boundedBody reads an answer's body up to MaxAnswer, and checks a JSON
// body as it passes: the nesting of arrays and objects outside strings, and
// UTF-8 (a rune cut between two reads is carried over).
type boundedBody struct {
	rc   io.ReadCloser
	left int
	err  error

	started, json    bool // the first byte that is no space was seen; it opened JSON
	inString, escape bool
	depth            int
	rune             [utf8.UTFMax]byte // an incomplete rune so far
	runeLen, runeN   int
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) > b.left+1 {
		p = p[:b.left+1] // one byte past the bound tells a body over it
	}
	n, err := b.rc.Read(p)
	if n > b.left {
		b.err = errTooLarge
		return 0, b.err
	}
	b.left -= n
	if cerr := b.check(p[:n]); cerr != nil {
		b.err = cerr
		return 0, cerr
	}
	if err == io.EOF && b.runeN > 0 {
		b.err = errUTF8
		return 0, b.err
	}
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }

// check follows the JSON of p: the nesting outside strings, and UTF-8.
func (b *boundedBody) check(p []byte) error {
	for _, c := range p {
		if !b.started {
			if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				continue
			}
			b.started, b.json = true, c == '{' || c == '[' || c == '"'
		}
		if !b.json {
			return nil
		}
		if b.runeN > 0 || c >= utf8.RuneSelf {
			if err := b.utf8Byte(c); err != nil {
				return err
			}
			continue
		}
		switch {
		case b.escape:
			b.escape = false
		case b.inString:
			switch c {
			case '\\':
				b.escape = true
			case '"':
				b.inString = false
			}
		case c == '"':
			b.inString = true
		case c == '{' || c == '[':
			if b.depth++; b.depth > MaxNesting {
				return errNesting
			}
		case c == '}' || c == ']':
			b.depth--
		}
	}
	return nil
}

// utf8Byte adds a byte of a rune over one byte, and checks the rune once
// it is whole.
func (b *boundedBody) utf8Byte(c byte) error {
	if b.runeN == 0 {
		switch {
		case c&0xE0 == 0xC0:
			b.runeLen = 2
		case c&0xF0 == 0xE0:
			b.runeLen = 3
		case c&0xF8 == 0xF0:
			b.runeLen = 4
		default:
			return errUTF8 // a continuation byte, or no lead byte at all
		}
	}
	b.rune[b.runeN] = c
	b.runeN++
	if b.runeN < b.runeLen {
		if b.runeN > 1 && c&0xC0 != 0x80 {
			return errUTF8
		}
		return nil
	}
	b.runeN = 0
	if !utf8.Valid(b.rune[:b.runeLen]) {
		return errUTF8
	}
	b.escape = false // an escape is ASCII: a rune after a backslash ends it as invalid JSON, the parser's to say
	return nil
}
