package mockserver_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// serveOn serves the mock with the bounds of t on 127.0.0.1 and returns
// its address; the server stops when the test ends.
func serveOn(t *testing.T, to mockserver.Timeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := mockserver.NewHTTPServer(newServer(t), to, nil)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// closedWithin reads conn until the server closes it, and fails when that
// takes longer than limit (a safety net: the bounds under test are far
// shorter).
func closedWithin(t *testing.T, conn net.Conn, limit time.Duration) string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(limit))
	b, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v; read so far %q", limit, b)
	}
	return string(b)
}

// Finding "timeouts": an idle keep-alive connection and a slow body were
// held for 60 s and more. Now the server closes them after its idle and
// read timeouts, and refuses a request head past MaxHeaderBytes.
func TestHTTPServerBounds(t *testing.T) {
	t.Parallel()
	addr := serveOn(t, mockserver.Timeouts{Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond, MaxHeaderBytes: 8 << 10})

	t.Run("idle keep-alive", func(t *testing.T) {
		t.Parallel()
		conn := sendHead(t, addr, "GET /v1/plans HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET /v1/plans: %v %v", res, err)
		}
		io.Copy(io.Discard, res.Body)
		// The response is read; the connection now idles until the server
		// closes it.
		closedWithin(t, conn, 10*time.Second)
	})

	t.Run("slow body", func(t *testing.T) {
		t.Parallel()
		conn := sendHead(t, addr, "PUT /v1/users/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: api-key "+keyA+
			"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", `{"firstName":`)
		// The other 987 bytes never come.
		got := closedWithin(t, conn, 10*time.Second)
		if got != "" && !strings.HasPrefix(got, "HTTP/1.1 400") {
			t.Errorf("the slow body was answered %q, want a 400 or nothing", got)
		}
	})

	t.Run("large head", func(t *testing.T) {
		t.Parallel()
		req, _ := http.NewRequest("GET", "http://"+addr+"/v1/plans", nil)
		req.Header.Set("X-Huge", strings.Repeat("h", 16<<10))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("a 16 KiB header: %d, want 431", res.StatusCode)
		}
	})
}

// The defaults: a request has 30 s, an answer 90 s (a delay may take 60),
// an idle connection 30 s, a request head 64 KiB.
func TestHTTPServerDefaults(t *testing.T) {
	t.Parallel()
	hs := mockserver.NewHTTPServer(http.NotFoundHandler(), mockserver.Timeouts{}, nil)
	if hs.ReadHeaderTimeout != 10*time.Second || hs.ReadTimeout != 30*time.Second || hs.WriteTimeout != 90*time.Second ||
		hs.IdleTimeout != 30*time.Second || hs.MaxHeaderBytes != 64<<10 {
		t.Errorf("defaults: header %v, read %v, write %v, idle %v, head %d", hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout, hs.MaxHeaderBytes)
	}
	if hs.WriteTimeout <= mockserver.MaxDelay {
		t.Errorf("the write timeout %v would cut a delay of %v", hs.WriteTimeout, mockserver.MaxDelay)
	}
}
