package mockserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// timed sends a request to the mock at addr and returns its status and how
// long the answer took; a client timeout of 5 s bounds the test, whatever
// the mock does.
func timed(t *testing.T, addr, method, path, body string, headers ...string) (int, time.Duration) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	start := time.Now()
	res, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	took := time.Since(start)
	if err != nil {
		return 0, took
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, took
}

// sendHead opens a connection to addr and sends a request head and the
// first bytes of its body.
func sendHead(t *testing.T, addr, head, first string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+first); err != nil {
		t.Fatal(err)
	}
	return conn
}

func putBodyA() string {
	b, _ := json.Marshal(userBodyA())
	return string(b)
}

const loginBody = `{"email":"qa@example.com","password":"qa-password"}`

// Finding "two slow unauthenticated connections stop every write": each
// reserved 32 MiB of the 64 MiB body budget, by its declared length,
// before sending a byte, and every login and PUT got 503 after 10 s. Now a
// body is charged as its bytes arrive: two connections sending a byte a
// second hold two bytes, and another client's PUT and login are answered
// at once.
func TestSlowBodiesHoldNoBudget(t *testing.T) {
	t.Parallel()
	addr := serveOn(t, mockserver.Timeouts{})
	chunked := sendHead(t, addr, "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Transfer-Encoding: chunked\r\n\r\n", "1\r\n{\r\n")
	declared := sendHead(t, addr, "PUT /__admin/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 33554432\r\n\r\n", "{")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	wg.Go(func() { // a byte a second on each, for as long as the test lasts
		for range 10 {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			io.WriteString(chunked, "1\r\n \r\n")
			io.WriteString(declared, " ")
		}
	})
	time.Sleep(200 * time.Millisecond) // both heads are read, their handlers waiting for the rest
	for _, r := range []struct{ method, path, body, auth string }{
		{"PUT", "/v1/users/1", putBodyA(), "api-key " + keyA},
		{"POST", "/v1/sessions", loginBody, ""},
	} {
		code, took := timed(t, addr, r.method, r.path, r.body, "Authorization", r.auth)
		t.Logf("%s %s beside two slow bodies: %d in %v", r.method, r.path, code, took.Round(time.Millisecond))
		if code != 200 || took > time.Second {
			t.Errorf("%s %s beside two slow bodies: status %d in %v; want 200 within 1 s", r.method, r.path, code, took.Round(time.Millisecond))
		}
	}
}

// Unauthenticated bodies share a quarter of the budget (8 MiB, two bodies
// of 1 MiB at 4 bytes a byte): twenty sign-ups that each send most of
// 1 MiB and then stall, or trickle a byte every 50 ms, would take all
// 32 MiB without it. An authenticated
// PUT of 256 KiB, which takes room, is answered at once (without the share
// it waits for the stalls to be cut), and so are a login (under 4 KiB: it
// takes no room) and an unauthenticated PUT of 256 KiB (refused before its
// body is read, whose rest the journal reads): all before any stalled body
// is cut off. Those are cut
// off (503) once they sent nothing for the hold (2 s; 500 ms here) while
// others wait (without the cut, none is answered before the read timeout,
// 30 s).
func TestStalledBodiesAreCutOff(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	mockserver.SetBodyHold(srv, 500*time.Millisecond)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := mockserver.NewHTTPServer(srv, mockserver.Timeouts{}, nil)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()
	const stalled, sent = 20, 1<<20 - 1<<10
	chunk := `{"email":"` + strings.Repeat("x", sent-11)
	// The share is taken: two bodies hold 4 MiB each, the others wait.
	shareTaken := func() {
		for start := time.Now(); mockserver.AnonymousRoom(srv) >= 4<<20; time.Sleep(5 * time.Millisecond) {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("the stalled sign-ups did not take the anonymous share in 5 s (%d bytes left)", mockserver.AnonymousRoom(srv))
			}
		}
	}
	// The first half trickles (and takes the share first), the other stalls.
	conns := make([]net.Conn, stalled)
	trickles := func(i int) bool { return i < stalled/2 }
	for i := range conns {
		if i == stalled/2 {
			shareTaken()
		}
		conns[i] = sendHead(t, addr, fmt.Sprintf("POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\n\r\n", 1<<20), "")
		go func() { // ends when the connection is closed
			if _, err := io.WriteString(conns[i], chunk); err != nil || !trickles(i) {
				return
			}
			for range 100 {
				time.Sleep(50 * time.Millisecond)
				if _, err := io.WriteString(conns[i], "x"); err != nil {
					return
				}
			}
		}()
	}
	shareTaken()

	// When each stalled sign-up is answered (cut off), if it is.
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		cuts     []time.Time
		trickled int
	)
	deadline := time.Now().Add(time.Second) // a stall is cut 500 ms after its last progress, within a quarter more
	for i, conn := range conns {
		wg.Go(func() {
			conn.SetReadDeadline(deadline)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				return // not cut: nobody needed its room
			}
			at := time.Now()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "stopped arriving") {
				t.Errorf("a stalled sign-up was answered %d %s, want 503 saying its body stopped arriving", res.StatusCode, b)
			}
			mu.Lock()
			cuts = append(cuts, at)
			if trickles(i) {
				trickled++
			}
			mu.Unlock()
		})
	}
	padding := strings.Repeat(" ", 256<<10) // white space after the object: the same body, larger
	answered := map[string]time.Time{}
	for _, r := range []struct {
		what, method, path, body, auth string
		want                           int
	}{
		{"an authenticated PUT of 256 KiB", "PUT", "/v1/users/1", putBodyA() + padding, "api-key " + keyA, 200},
		{"a login", "POST", "/v1/sessions", loginBody, "", 200},
		// Refused before its body is read; the journal reads 64 KiB of it.
		{"an unauthenticated PUT of 256 KiB", "PUT", "/v1/users/1", putBodyA() + padding, "", 401},
	} {
		code, took := timed(t, addr, r.method, r.path, r.body, "Authorization", r.auth)
		answered[r.what] = time.Now()
		t.Logf("%s beside %d stalled sign-ups: %d in %v", r.what, stalled, code, took.Round(time.Millisecond))
		if code != r.want {
			t.Errorf("%s beside %d stalled sign-ups: %d, want %d", r.what, stalled, code, r.want)
		}
	}
	wg.Wait()
	if len(cuts) == 0 {
		t.Fatal("no stalled sign-up was cut off within a second")
	}
	first := slices.MinFunc(cuts, func(a, b time.Time) int { return a.Compare(b) })
	for what, at := range answered {
		if !at.Before(first) {
			t.Errorf("%s was answered %v after the first stalled sign-up was cut off: it waited for their room", what, at.Sub(first).Round(time.Millisecond))
		}
	}
	if trickled == 0 {
		t.Error("no trickling sign-up was cut off within a second")
	}
	t.Logf("%d of %d stalled sign-ups cut off within a second, %d of them trickling", len(cuts), stalled, trickled)
}
