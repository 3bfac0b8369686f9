package target

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The one client of the tools against answers a correct target never
// gives: each is read whole or refused with an *AnswerError, never
// followed, never read past its bounds.
func TestClientBoundsEveryAnswer(t *testing.T) {
	t.Parallel()
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name    string
		body    []string // written and flushed one after another
		header  map[string]string
		status  int
		refused string // the AnswerError's reason; "" read whole
	}{
		{name: "an answer of the API", body: []string{`{"platforms":[{"id":1,"name":"Android"}]}`}},
		{name: "exactly the bound", body: []string{strings.Repeat("x", MaxAnswer)}},
		{name: "one byte past the bound", body: []string{strings.Repeat("x", MaxAnswer+1)}, refused: "over 4 MiB"},
		{name: "past the bound in pieces", body: []string{"[" + strings.Repeat("1,", 1<<20), strings.Repeat("2,", 1<<20)}, refused: "over 4 MiB"},
		{name: "nested to the bound", body: []string{nested(MaxNesting)}},
		{name: "nested past the bound", body: []string{nested(MaxNesting + 1)}, refused: "deeper than 64"},
		{name: "brackets in a string do not nest", body: []string{`{"a":"` + strings.Repeat("[", 1000) + `\"` + `"}`}},
		{name: "a rune split between two reads", body: []string{`{"name":"caf` + "\xc3", "\xa9" + `"}`}},
		{name: "invalid UTF-8 in JSON", body: []string{`{"name":"caf` + "\xe9" + `"}`}, refused: "not valid UTF-8"},
		{name: "a surrogate in UTF-8", body: []string{`["` + "\xed\xa0\x80" + `"]`}, refused: "not valid UTF-8"},
		{name: "JSON cut in a rune", body: []string{`["` + "\xc3"}, refused: "not valid UTF-8"},
		{name: "a text answer is not JSON's to check", body: []string{"<html>" + strings.Repeat("[", 100) + "\xe9"}},
		{name: "a redirect is the answer", status: http.StatusTemporaryRedirect, header: map[string]string{"Location": "http://127.0.0.2:1/v1/sessions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(max(tc.status, http.StatusOK))
				for _, part := range tc.body {
					io.WriteString(w, part)
					w.(http.Flusher).Flush()
				}
			}))
			defer srv.Close()
			resp, err := NewClient(5*time.Second).Post(srv.URL+"/v1/sessions", "application/json", strings.NewReader(`{"password":"p"}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			var refused *AnswerError
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("read: %v", err)
			case tc.refused == "" && string(b) != strings.Join(tc.body, ""):
				t.Errorf("read %d bytes, want the %d of the answer", len(b), len(strings.Join(tc.body, "")))
			case tc.refused != "" && (!errors.As(err, &refused) || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("read %d bytes, error %v; want an answer refused: %q", len(b), err, tc.refused)
			}
			if tc.status != 0 {
				redirect := Redirected("POST", srv.URL+"/v1/sessions", resp.StatusCode, resp.Header)
				if resp.StatusCode != tc.status || redirect == nil || !strings.Contains(redirect.Error(), tc.header["Location"]) {
					t.Errorf("status %d, %v; want %d, a redirect naming its Location", resp.StatusCode, redirect, tc.status)
				}
			}
		})
	}
}

// An answer whose body never ends ends at the client's timeout: the
// timeout covers the body, not only the head.
func TestClientTimeoutCoversTheBody(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a timeout of 300 ms")
	}
	t.Parallel()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		for {
			select {
			case <-stop:
				return
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
				io.WriteString(w, "[")
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	defer close(stop)
	resp, err := NewClient(300 * time.Millisecond).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("read a trickling body: %v, want the client's timeout", err)
	}
}
