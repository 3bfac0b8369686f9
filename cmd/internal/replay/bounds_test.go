package replay

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
)

// A reproducer's file is named after the recording's file, whatever path
// it was given by and whatever it holds: it stays in --out, mode 0600.
func TestReproducerNamesStayInOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out", "replay")
	for _, name := range []string{"../../escape.har", "/tmp/../../etc/passwd", `..\..\escape.json`, "..", "a/../../b.har"} {
		r := &Result{Recording: &Recording{Name: name}, Outcomes: []*Outcome{
			{N: 7, Divergence: &explore.Verified{Divergence: explore.Divergence{Feature: "# Written by pricing-contract replay\nFeature: x\n", Signature: "s"}}},
		}}
		if err := r.WriteReproducers(out, false); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		path := r.Outcomes[0].Reproducer
		if filepath.Dir(path) != out || !strings.HasPrefix(filepath.Base(path), "replay-") {
			t.Errorf("%q: the reproducer is %s, outside %s", name, path, out)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%q: %s: %v, %v", name, path, fi, err)
		}
	}
	var outside []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && filepath.Dir(path) != out {
			outside = append(outside, path)
		}
		return nil
	})
	if len(outside) > 0 {
		t.Errorf("files outside --out: %v", outside)
	}
}

// harGenerator streams a HAR of entries entries, each made by entry(i) of
// parts written one after another, never held whole: the recording of a
// test can be gigabytes.
func harGenerator(entries int, entry func(i int) []string) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		w := &bytes.Buffer{}
		w.WriteString(`{"log":{"version":"1.2","creator":{"name":"test"},"entries":[`)
		for i := range entries {
			if i > 0 {
				w.WriteString(",")
			}
			for _, part := range entry(i) {
				w.WriteString(part)
				if w.Len() > 1<<20 {
					if _, err := pw.Write(w.Bytes()); err != nil {
						return
					}
					w.Reset()
				}
			}
		}
		w.WriteString(`]}}`)
		pw.Write(w.Bytes())
		pw.Close()
	}()
	return pr
}

// countingReader counts what was read of r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// apiEntry is a login of the API, recorded with its answer.
func apiEntry(i int) []string {
	return []string{fmt.Sprintf(`{"startedDateTime":"2026-11-26T10:00:00Z","request":{"method":"POST","url":"https://app.example/v1/sessions",`+
		`"headers":[{"name":"Content-Type","value":"application/json"},{"name":"Cookie","value":"sid=cookie-%d"}],`+
		`"postData":{"mimeType":"application/json","text":"{\"email\":\"qa@example.com\",\"password\":\"recorded-%d\"}"}},`+
		`"response":{"status":200,"headers":[],"content":{"mimeType":"application/json","text":"{\"userId\":1,\"clientId\":1,\"token\":\"t%d\"}"}}}`, i, i, i)}
}

// A recording is hostile input: read as it streams, within its bounds,
// each case measured by the growth of the heap in use while it is read
// (the bound of each is stated beside it).
func TestLargeRecordingsAreReadWithinBounds(t *testing.T) {
	testenv.SkipShort(t, "streams recordings of a GiB and of a million entries")
	image := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAA", (8<<20)/24) // an 8 MiB base64 image
	for _, tc := range []struct {
		name    string
		har     func() io.Reader
		heap    uint64 // the bound of the heap's growth while it is read
		refused string // "" read
		want    int    // requests read
	}{
		{
			// A session's HAR of 1 GiB: 128 images of 8 MiB from a CDN
			// (their strings cut at 1 MiB as they pass, their answers not
			// kept) around 1000 requests of the API.
			name: "a HAR of 1 GiB",
			har: func() io.Reader {
				return harGenerator(1128, func(i int) []string {
					if i%9 == 0 && i/9 < 128 {
						return []string{`{"startedDateTime":"2026-11-26T10:00:00Z","request":{"method":"GET","url":"https://cdn.example/img/` + fmt.Sprint(i) +
							`.png","headers":[]},"response":{"status":200,"content":{"mimeType":"image/png","encoding":"base64","text":"`, image, `"}}}`}
					}
					return apiEntry(i)
				})
			},
			heap: 64 << 20,
			want: 1128,
		},
		{
			// A million small entries of the API: refused at the entry
			// past maxEntries, having kept 20,000.
			name:    "a HAR of a million entries",
			har:     func() io.Reader { return harGenerator(1_000_000, apiEntry) },
			heap:    64 << 20,
			refused: "more than 20000 requests: refused",
		},
		{
			// One entry of 64 MiB of small strings: refused past
			// maxEntryJSON, before it is decoded.
			name: "an entry of 64 MiB",
			har: func() io.Reader {
				header := strings.Repeat(`{"name":"X","value":"y"},`, (1<<20)/25)
				return harGenerator(1, func(int) []string {
					parts := []string{`{"request":{"method":"GET","url":"https://app.example/v1/platforms","headers":[`}
					for range 64 {
						parts = append(parts, header)
					}
					return append(parts, `{"name":"X","value":"y"}]}}`)
				})
			},
			heap:    64 << 20,
			refused: "an entry of the recording is over 8 MiB of JSON",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if raceEnabled && tc.want > 0 {
				t.Skip("a GiB through the race detector: minutes; .ci/run reads it without -race, by name")
			}
			var (
				rec *Recording
				err error
			)
			in := &countingReader{r: tc.har()}
			start := time.Now()
			grew := testenv.PeakHeap(func() { rec, err = Read(in) })
			read := in.n
			io.Copy(io.Discard, in) // let the generator end
			t.Logf("%s: %.0f MiB read in %s, the heap grew by %.1f MiB (bound %d MiB): %v",
				tc.name, float64(read)/(1<<20), time.Since(start).Round(time.Millisecond), float64(grew)/(1<<20), tc.heap>>20, err)
			switch {
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("read: %v, want refused: %q", err, tc.refused)
			case tc.refused == "" && err != nil:
				t.Fatalf("read: %v", err)
			case tc.refused == "" && len(rec.Requests) != tc.want:
				t.Errorf("%d requests, want %d", len(rec.Requests), tc.want)
			}
			if grew > tc.heap {
				t.Errorf("the heap grew by %d MiB, over %d MiB", grew>>20, tc.heap>>20)
			}
			if rec != nil {
				// What the recording held of its secrets is still known to
				// the redactor: a cookie of a request whose answer was not
				// kept, a recorded password.
				ss := collectSecrets(rec)
				if !ss.has("cookie-1") || !ss.has("recorded-1") {
					t.Errorf("the recording's secrets were lost: %d of them", len(ss))
				}
			}
		})
	}
}

// A string over maxString is cut where it passes, and its request is
// marked truncated: a replay skips it rather than send a body it does not
// have whole.
func TestLongStringsAreCut(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxString) // 2 MiB
	har := `{"log":{"entries":[{"request":{"method":"PUT","url":"https://app.example/v1/users/1","headers":[],` +
		`"postData":{"mimeType":"application/json","text":"{\"firstName\":\"` + long + `\"}"}},"response":{"status":400}},` +
		`{"request":{"method":"GET","url":"https://app.example/v1/platforms","headers":[]},"response":{"status":200}}]}}`
	rec, err := Parse([]byte(har))
	if err != nil {
		t.Fatal(err)
	}
	put, get := rec.Requests[0], rec.Requests[1]
	if !put.Truncated || len(put.Body) > maxString+64 || get.Truncated {
		t.Errorf("PUT truncated %v with %d bytes of body, GET truncated %v", put.Truncated, len(put.Body), get.Truncated)
	}
	if !bytes.HasPrefix(put.Body, []byte(`{"firstName":"é`)) || !utf8Valid(put.Body) {
		t.Errorf("the cut body is not its beginning in whole runes: %.40q", put.Body)
	}
	for _, bad := range []string{"[" + strings.Repeat("1", maxToken+1) + "]", `{"log":{"entries":[` + strings.Repeat("[", 20000)} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%.30q… read", bad)
		}
	}
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }
