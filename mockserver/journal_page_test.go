package mockserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Finding "work in flight": reading the journal answered megabytes per
// read. A read now holds 1 MiB of entries at most; the older ones were
// then out of reach. Now the answer's "next" pages to them, and walking
// the pages gives every entry once, newest first.
func TestJournalPages(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	const sent = 120
	body := raw(`{"email":"` + strings.Repeat("\x01", 60<<10) + `"}`)
	for range sent {
		send(t, srv, "POST", "/v1/users", noAuth, body)
	}
	var ids []int64
	pages := 0
	for path := "/__admin/requests"; path != ""; pages++ {
		if pages > sent {
			t.Fatal("the pages do not end")
		}
		r := send(t, srv, "GET", path, noAuth, nil)
		mustStatus(t, r, http.StatusOK, "GET "+path)
		if len(r.body) > 8<<20 {
			t.Errorf("GET %s answered %d bytes", path, len(r.body))
		}
		for _, e := range r.json.Get("requests").Array() {
			ids = append(ids, e.Get("id").Int())
		}
		path = ""
		if next := r.json.Get("next"); next.Exists() {
			path = "/__admin/requests?before=" + strconv.FormatInt(next.Int(), 10)
		}
	}
	if pages < 2 {
		t.Errorf("%d entries of 60 KiB came in %d page; want several", sent, pages)
	}
	if len(ids) != sent {
		t.Fatalf("the pages gave %d entries, want %d", len(ids), sent)
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] >= ids[i-1] {
			t.Fatalf("entry %d has id %d after %d: not newest first, or twice", i, ids[i], ids[i-1])
		}
	}
	for _, bad := range []string{"0", "-3", "x", ""} {
		r := send(t, srv, "GET", "/__admin/requests?before="+bad, noAuth, nil)
		if r.status != http.StatusBadRequest || r.json.Get("0.fieldName").String() != "before" {
			t.Errorf("before=%q: %s, want 400 on before", bad, r)
		}
	}
}
