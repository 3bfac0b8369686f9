package mockserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/internal/baregin"
)

// benchRequest is one request of the load benchmark.
type benchRequest struct {
	name, method, path, body string
	header                   map[string]string
}

func benchRequests() []benchRequest {
	put := `{"email":"` + emailA + `","firstName":"Quinn","lastName":"Assurance","timezone":"Europe/London",` +
		`"subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null}`
	return []benchRequest{
		{name: "GET_platforms", method: "GET", path: "/v1/platforms"},
		{name: "PUT_user_api-key", method: "PUT", path: "/v1/users/1", body: put,
			header: map[string]string{"Authorization": "api-key " + keyA, "Content-Type": "application/json"}},
	}
}

// serveN answers the request n times and returns how long that took.
func serveN(b *testing.B, h http.Handler, r benchRequest, n int) time.Duration {
	start := time.Now()
	for range n {
		var body *strings.Reader
		if r.body != "" {
			body = strings.NewReader(r.body)
		}
		var req *http.Request
		if body != nil {
			req = httptest.NewRequest(r.method, r.path, body)
		} else {
			req = httptest.NewRequest(r.method, r.path, nil)
		}
		req.Host = localHost
		for k, v := range r.header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s %s: %d %s", r.method, r.path, rec.Code, rec.Body)
		}
	}
	return time.Since(start)
}

// BenchmarkEngineVsBareGin serves the two requests of the wrk benchmark
// (README, "Limits and security") through the mock's engine and through a
// bare Gin engine (mockserver/internal/baregin), in alternating batches of
// the same run, and reports the mock's speed as a fraction of Gin's
// (x-gin: 1 is as fast as bare Gin). Run it with
//
//	go test ./mockserver -run '^$' -bench EngineVsBareGin -benchtime 20000x
func BenchmarkEngineVsBareGin(b *testing.B) {
	configs := []struct {
		name string
		opts mockserver.Options
	}{
		{"default", mockserver.Options{}},
		{"no-admin", mockserver.Options{NoAdmin: true}},
	}
	for _, cfg := range configs {
		for _, r := range benchRequests() {
			b.Run(cfg.name+"/"+r.name, func(b *testing.B) {
				mock, err := mockserver.New(cfg.opts)
				if err != nil {
					b.Fatal(err)
				}
				defer mock.Close()
				bare := baregin.Engine(keyA)
				serveN(b, mock, r, 100) // warm both up
				serveN(b, bare, r, 100)
				const batch = 100
				var inMock, inGin time.Duration
				b.ResetTimer()
				for done := 0; done < b.N; done += batch {
					n := min(batch, b.N-done)
					inMock += serveN(b, mock, r, n)
					inGin += serveN(b, bare, r, n)
				}
				b.StopTimer()
				b.ReportMetric(float64(inMock.Nanoseconds())/float64(b.N), "mock-ns/op")
				b.ReportMetric(float64(inGin.Nanoseconds())/float64(b.N), "gin-ns/op")
				b.ReportMetric(inGin.Seconds()/inMock.Seconds(), "x-gin")
			})
		}
	}
}
