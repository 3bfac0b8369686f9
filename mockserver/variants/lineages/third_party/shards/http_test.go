package shards

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestOverRealHTTP drives the server through a real listener.
func TestOverRealHTTP(t *testing.T) {
	s, err := New(Options{Pairs: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	a := s.Accounts()[1][0]
	body := `{"email":"` + a.Email + `","password":"` + a.Password + `"}`
	res, err := http.Post(ts.URL+s.BasePath()+"/sessions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var sess map[string]any
	_ = json.NewDecoder(res.Body).Decode(&sess)
	res.Body.Close()
	if res.StatusCode != 200 || sess["userId"] != float64(3) || sess["clientId"] != float64(3) {
		t.Fatalf("session over HTTP: %d %v", res.StatusCode, sess)
	}
	req, _ := http.NewRequest("PUT", ts.URL+s.BasePath()+"/clients/3?sessionToken="+sess["token"].(string),
		strings.NewReader(`{"name":"Over HTTP","addressLine1":"1 Road","addressCity":"York","addressPostcode":"Y1","addressCountry":"GB","currency":{"id":4},"terms":"I agree"}`))
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cl map[string]any
	_ = json.NewDecoder(res.Body).Decode(&cl)
	res.Body.Close()
	if res.StatusCode != 200 || cl["name"] != "Over HTTP" || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("PUT /clients over HTTP: %d %v", res.StatusCode, cl)
	}
	big := strings.NewReader(`{"name":"` + strings.Repeat("x", 1<<20) + `"}`)
	res, err = http.Post(ts.URL+s.BasePath()+"/users", "application/json", big)
	if err == nil {
		res.Body.Close()
		if res.StatusCode != 400 {
			t.Errorf("oversized body: %d", res.StatusCode)
		}
	}
}
