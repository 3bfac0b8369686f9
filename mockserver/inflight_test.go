package mockserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
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

// Unauthenticated bodies share a quarter of the budget (16 MiB): seventy
// sign-ups that each send most of 1 MiB and stall would fill all of it,
// yet an authenticated PUT of 256 KiB is answered at once (without the
// share it waits until the stalls are cut, most of a second), and a login
// of 256 KiB, which waits for the share, within a little more than a
// second: the stalled bodies are cut off (503) once they have sent nothing
// for a second while it waits (with no cut it waits 10 s and is answered
// 503).
func TestStalledBodiesAreCutOff(t *testing.T) {
	t.Parallel()
	addr := serveOn(t, mockserver.Timeouts{})
	const stalled, sent = 70, 1<<20 - 1<<10
	chunk := `{"email":"` + strings.Repeat("x", sent-11)
	conns := make([]net.Conn, stalled)
	for i := range conns {
		conns[i] = sendHead(t, addr, fmt.Sprintf("POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\n\r\n", 1<<20), "")
		go io.WriteString(conns[i], chunk) // ends when the server has read it, or the connection is closed
	}
	time.Sleep(300 * time.Millisecond) // the bodies are read as far as there is room

	padding := strings.Repeat(" ", 256<<10) // white space after the object: the same body, larger
	code, took := timed(t, addr, "PUT", "/v1/users/1", putBodyA()+padding, "Authorization", "api-key "+keyA)
	t.Logf("an authenticated PUT beside %d stalled sign-ups: %d in %v", stalled, code, took.Round(time.Millisecond))
	if code != 200 || took > 500*time.Millisecond {
		t.Errorf("an authenticated PUT beside %d stalled sign-ups: %d in %v, want 200 at once (within 500 ms)", stalled, code, took.Round(time.Millisecond))
	}
	code, took = timed(t, addr, "POST", "/v1/sessions", loginBody+padding)
	t.Logf("a login beside %d stalled sign-ups: %d in %v", stalled, code, took.Round(time.Millisecond))
	if code != 200 || took > 3*time.Second {
		t.Errorf("a login beside %d stalled sign-ups: %d in %v, want 200 within 3 s (a stall is cut after 1 s)", stalled, code, took.Round(time.Millisecond))
	}
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		cut int
	)
	deadline := time.Now().Add(500 * time.Millisecond)
	for _, conn := range conns {
		wg.Go(func() {
			conn.SetReadDeadline(deadline)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				return // not cut: nobody needed its room
			}
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "stopped arriving") {
				t.Errorf("a stalled sign-up was answered %d %s, want 503 saying its body stopped arriving", res.StatusCode, b)
			}
			mu.Lock()
			cut++
			mu.Unlock()
		})
	}
	wg.Wait()
	if cut == 0 {
		t.Error("no stalled sign-up was cut off")
	}
	t.Logf("%d of %d stalled sign-ups cut off", cut, stalled)
}
