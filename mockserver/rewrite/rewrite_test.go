package rewrite

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// jsonHandler answers 201 with a JSON body whose number a float64 would round.
var jsonHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Path", r.URL.Path)
	w.WriteHeader(http.StatusCreated)
	w.Write([]byte(`{"id":12345678901234567890,"note":"<b>"}` + "\n"))
})

func serve(h http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	return rec
}

func TestAnswers(t *testing.T) {
	tests := []struct {
		name       string
		next       http.Handler
		edit       func(*Answer)
		status     int
		body, path string
	}{
		{"untouched", jsonHandler, func(*Answer) {}, 201, `{"id":12345678901234567890,"note":"<b>"}` + "\n", "/v1/x"},
		{"status and header", jsonHandler, func(a *Answer) { a.Status = 404; a.Header.Set("X-Path", "changed") }, 404,
			`{"id":12345678901234567890,"note":"<b>"}` + "\n", "changed"},
		{"JSON edited, numbers and HTML kept", jsonHandler, func(a *Answer) {
			a.EditJSON(func(v any) (any, bool) { v.(map[string]any)["extra"] = true; return v, true })
		}, 201, `{"extra":true,"id":12345678901234567890,"note":"<b>"}` + "\n", "/v1/x"},
		{"JSON looked at, not changed", jsonHandler, func(a *Answer) {
			a.EditJSON(func(v any) (any, bool) { return "ignored", false })
		}, 201, `{"id":12345678901234567890,"note":"<b>"}` + "\n", "/v1/x"},
		{"not JSON is left alone", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("plain")) }),
			func(a *Answer) {
				if a.EditJSON(func(v any) (any, bool) { return v, true }) {
					a.Body = []byte("edited")
				}
			}, 200, "plain", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serve(Answers(tt.next, tt.edit), "/v1/x")
			if rec.Code != tt.status || rec.Body.String() != tt.body || rec.Header().Get("X-Path") != tt.path {
				t.Errorf("got %d %q X-Path %q, want %d %q %q", rec.Code, rec.Body, rec.Header().Get("X-Path"), tt.status, tt.body, tt.path)
			}
			if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(rec.Body.Len()); got != want {
				t.Errorf("Content-Length %q, want %s", got, want)
			}
		})
	}
}

func TestRequests(t *testing.T) {
	h := Requests(jsonHandler, func(r *http.Request) {
		SetPath(r, "/v1"+strings.TrimPrefix(r.URL.Path, "/v2"))
		r.Header.Del("Authorization")
	})
	req := httptest.NewRequest("GET", "/v2/users/1?x=1", nil)
	req.Header.Set("Authorization", "api-key k")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("X-Path"); got != "/v1/users/1" {
		t.Errorf("the handler saw %q, want /v1/users/1", got)
	}
	if req.URL.Path != "/v2/users/1" || req.Header.Get("Authorization") == "" {
		t.Errorf("the caller's request changed: %s %v", req.URL.Path, req.Header)
	}
}

func TestEachObject(t *testing.T) {
	v := map[string]any{"users": []any{map[string]any{"client": map[string]any{}}}, "n": 1.0}
	var keys []string
	EachObject(v, func(key string, _ map[string]any) { keys = append(keys, key) })
	slices.Sort(keys)
	if want := []string{"", "client", "users"}; !slices.Equal(keys, want) {
		t.Errorf("objects under %q, want %q", keys, want)
	}
}

func TestEditRequestJSON(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Length", strconv.FormatInt(r.ContentLength, 10))
		w.Write(b)
	})
	tests := []struct {
		name, body, want string
		edit             func(v any) (any, bool)
	}{
		{"edited, numbers kept", `{"id":12345678901234567890,"name":"<b>"}`, `{"id":12345678901234567890,"name":"x"}` + "\n",
			func(v any) (any, bool) { v.(map[string]any)["name"] = "x"; return v, true }},
		{"looked at, not changed", `{"id":1}`, `{"id":1}`, func(v any) (any, bool) { return "ignored", false }},
		{"not JSON is left alone", `{"id":`, `{"id":`, func(v any) (any, bool) { return v, true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Requests(echo, func(r *http.Request) { EditRequestJSON(r, tt.edit) })
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/x", strings.NewReader(tt.body)))
			if rec.Body.String() != tt.want {
				t.Errorf("the handler read %q, want %q", rec.Body, tt.want)
			}
			if got := rec.Header().Get("X-Length"); got != strconv.Itoa(len(tt.want)) {
				t.Errorf("Content-Length %s, want %d", got, len(tt.want))
			}
		})
	}
}
