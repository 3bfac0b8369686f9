package target

import (
	"slices"
	"testing"
)

func TestCreates(t *testing.T) {
	tests := []struct {
		method, path, body string
		want               []string
	}{
		{"POST", "/apps", `{"name":"a"}`, []string{"app"}},
		{"POST", "/clients", `{"name":"c","app":{"name":"a"}}`, []string{"client", "app"}},
		{"PUT", "/users/1", `{"client":{"name":"c"}}`, []string{"client"}},
		{"PUT", "/users/1", `{"email":"a@b.c"}`, nil},
		{"GET", "/apps", ``, nil},
		// A malformed body creates nothing: its 400 is InvalidBody, not a
		// bound, and the scenario expecting it must not be skipped.
		{"POST", "/apps", `{"name":`, nil},
		{"POST", "/apps", `[{"name":"a"}]`, nil},
		{"POST", "/clients", `null`, nil},
		{"POST", "/clients", ``, nil},
		{"POST", "/clients", `{"name":"c"} x`, nil},
	}
	for _, tt := range tests {
		if got := Creates(tt.method, tt.path, []byte(tt.body)); !slices.Equal(got, tt.want) {
			t.Errorf("Creates(%s %s %q) = %q, want %q", tt.method, tt.path, tt.body, got, tt.want)
		}
	}
}
