package mocktest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Recorder is a listener that keeps every byte it receives: the other
// host or port of a redirect, to show that no client followed it with a
// credential. It answers any request 200 with a login's and a
// collection's members, so that a client that did follow would go on.
type Recorder struct {
	URL      string // http://HOST:PORT
	mu       sync.Mutex
	received []byte
}

// StartRecorder listens on host, an address of loopback (127.0.0.2 is
// another host on Linux), until tb ends; a host that cannot be listened on
// skips tb.
func StartRecorder(tb testing.TB, host string) *Recorder {
	tb.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		tb.Skipf("cannot listen on %s: %v", host, err)
	}
	rec := &Recorder{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"userId":1,"clientId":1,"token":"t","platforms":[]}`)
	}))
	srv.Listener = &recordingListener{Listener: ln, rec: rec}
	srv.Start()
	tb.Cleanup(srv.Close)
	rec.URL = srv.URL
	return rec
}

// Received is every byte the listener received so far.
func (r *Recorder) Received() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.received...)
}

// Redirect is a handler that answers every request 307 Temporary
// Redirect to the same path and query on r, after reading its body.
func (r *Recorder) Redirect() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		http.Redirect(w, req, r.URL+req.URL.RequestURI(), http.StatusTemporaryRedirect)
	})
}

type recordingListener struct {
	net.Listener
	rec *Recorder
}

func (l *recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &recordingConn{Conn: c, rec: l.rec}, nil
}

type recordingConn struct {
	net.Conn
	rec *Recorder
}

func (c *recordingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.rec.mu.Lock()
	c.rec.received = append(c.rec.received, p[:n]...)
	c.rec.mu.Unlock()
	return n, err
}
