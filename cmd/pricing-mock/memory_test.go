package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// residentLimit is the resident size a mock under the worst load below must
// stay within (README, "Limits and security").
const residentLimit = 256 << 20

// peakRSS is the high-water mark of a process's resident size (VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	m := regexp.MustCompile(`VmHWM:\s+([0-9]+) kB`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no VmHWM in /proc/%d/status", pid)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// Finding "work in flight": a hundred unauthenticated 1 MiB bodies at once
// took the process to 3.69 GB, twenty journal reads to 1.81 GB. Bodies are
// now bounded before they are decoded and while they are read, journal
// reads are bounded and taken two at a time, and the runtime has a memory
// limit: under both loads at once the mock stays within residentLimit and
// keeps answering.
func TestWorkInFlightIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the memory test builds and loads a mock")
	}
	c := startChild(t, t.TempDir()+"/state.json")
	defer func() {
		c.cmd.Process.Kill()
		c.cmd.Wait()
	}()
	client := &http.Client{Timeout: 60 * time.Second}
	post := func(body string) (int, error) {
		req, _ := http.NewRequest("POST", c.base+"/users", strings.NewReader(body))
		req.Header.Set("Content-Type", "text/plain")
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, nil
	}
	// Fill the journal with the largest entries it keeps, whose bodies
	// escape to six bytes a byte in JSON.
	control := strings.Repeat("\x01", 64<<10)
	for range 120 {
		if _, err := post(`{"email":"` + control + `"}`); err != nil {
			t.Fatal(err)
		}
	}

	zeros := "[" + strings.Repeat("0,", (1<<20)/2-2) + "0]"
	deep := strings.Repeat("[", 1<<19-1) + strings.Repeat("]", 1<<19-1)
	var wg sync.WaitGroup
	statuses := make(chan int, 200)
	for i := range 100 {
		body := zeros
		if i%2 == 1 {
			body = deep
		}
		wg.Go(func() {
			code, err := post(body)
			if err != nil {
				t.Errorf("a worst-case body: %v", err)
			}
			statuses <- code
		})
	}
	for range 5 {
		wg.Go(func() {
			res, err := client.Get(c.base[:len(c.base)-len("/v1")] + "/__admin/requests")
			if err != nil {
				t.Errorf("a journal read: %v", err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Errorf("a journal read: %d", res.StatusCode)
			}
		})
	}
	// The mock keeps answering meanwhile: a probe every 20 ms until the
	// load is over, each within 5 s.
	loaded := make(chan struct{})
	go func() { wg.Wait(); close(loaded) }()
	probe := &http.Client{Timeout: 5 * time.Second}
	probes := 0
	for done := false; !done; {
		res, err := probe.Get(c.base + "/platforms")
		probes++
		if err != nil {
			t.Errorf("probe %d during the load: %v", probes, err)
		} else {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Errorf("probe %d during the load: %d", probes, res.StatusCode)
			}
		}
		select {
		case <-loaded:
			done = true
		case <-time.After(20 * time.Millisecond):
		}
	}
	close(statuses)
	for code := range statuses {
		if code != http.StatusBadRequest {
			t.Errorf("a worst-case body answered %d, want 400", code)
			break
		}
	}
	peak := peakRSS(t, c.cmd.Process.Pid)
	t.Logf("peak resident size under 100 worst-case 1 MiB bodies and 5 journal reads at once: %d MiB; %d probes answered meanwhile", peak>>20, probes)
	if peak > residentLimit {
		t.Errorf("peak resident size %d MiB, want at most %d MiB", peak>>20, residentLimit>>20)
	}
}
