package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
)

// crashRounds is how many times each crash test kills a mock under load;
// CI runs the default, `make crash` many more.
var crashRounds = flag.Int("crash.rounds", 10, "rounds of each crash test of the state file")

var (
	mockBinOnce sync.Once
	mockBin     string
	mockBinErr  error
)

// builtMock builds pricing-mock once, for the tests that run it as a child
// process to kill it.
func builtMock(t *testing.T) string {
	t.Helper()
	mockBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pricing-mock-bin")
		if err != nil {
			mockBinErr = err
			return
		}
		mockBin = filepath.Join(dir, "pricing-mock")
		out, err := exec.Command("go", "build", "-o", mockBin, ".").CombinedOutput()
		if err != nil {
			mockBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if mockBinErr != nil {
		t.Fatal(mockBinErr)
	}
	return mockBin
}

// child is a pricing-mock process on 127.0.0.1.
type child struct {
	cmd  *exec.Cmd
	base string
}

func startChild(t *testing.T, state string, args ...string) *child {
	t.Helper()
	cmd := exec.Command(builtMock(t), append([]string{"--addr", "127.0.0.1:0", "--state", state, "--accounts", "8"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`listening on (http://127\.0\.0\.1:[0-9]+)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the mock did not start on %s: %q %v; stderr %s", state, line, err, stderr.String())
	}
	go io.Copy(io.Discard, out)
	return &child{cmd: cmd, base: m[1] + "/v1"}
}

// writer i is account A of pair i+1: user 2i+1 with its own api key.
func writerKey(i int) string {
	if i == 0 {
		return "qa-api-key"
	}
	return "qa-api-key-" + strconv.Itoa(i+1)
}

func writerUser(i int) int { return 2*i + 1 }

var userBody = `{"email":%q,"firstName":%q,"lastName":"Crash","timezone":"Europe/London",` +
	`"subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null}`

func writerEmail(i int) string {
	if i == 0 {
		return "qa@example.com"
	}
	return fmt.Sprintf("qa-%d@example.com", i+1)
}

// firstName reads a user's first name from a running child.
func (c *child) firstName(i int) (string, error) {
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/users/%d", c.base, writerUser(i)), nil)
	req.Header.Set("Authorization", "api-key "+writerKey(i))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`"firstName":"([^"]*)"`).FindSubmatch(b)
	if res.StatusCode != 200 || m == nil {
		return "", fmt.Errorf("GET /users/%d: %d %s", writerUser(i), res.StatusCode, b)
	}
	return string(m[1]), nil
}

// seqOf is the sequence number of a writer's first name "w<i>-<n>", or -1.
func seqOf(name string) int64 {
	_, n, ok := strings.Cut(name, "-")
	if !ok || !strings.HasPrefix(name, "w") {
		return -1
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return -1
	}
	return v
}

// TestCrashLosesNoAcknowledgedWrite kills a mock with --state at random
// moments while eight writers change their users, restarts it on the same
// file, and requires every write answered 200 to be there (or a later one
// of the same writer): an acknowledged write is on disk, whatever kills
// the process. SIGKILL gives it no chance to flush; SIGTERM must stop
// accepting, finish the requests in flight and fold the log into the file.
// With a log folded every 16 KiB, kills land in compactions too: between
// the log moved aside, the snapshot written and the old log removed.
func TestCrashLosesNoAcknowledgedWrite(t *testing.T) {
	testenv.SkipShort(t, "-short: the crash test builds and kills a mock")
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"SIGKILL", syscall.SIGKILL, nil},
		{"SIGTERM", syscall.SIGTERM, nil},
		{"SIGKILL while compacting", syscall.SIGKILL, []string{"--state-compact", "16"}},
	} {
		sig := tc.sig
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			state := filepath.Join(t.TempDir(), "state.json")
			rng := rand.New(rand.NewPCG(1, uint64(sig)+uint64(len(tc.args))))
			const writers = 8
			acked := make([]atomic.Int64, writers) // the last sequence number answered 200
			var seq atomic.Int64
			total, lost := 0, 0
			for round := range *crashRounds {
				c := startChild(t, state, tc.args...)
				// Every acknowledged write of the rounds before is there.
				for i := range writers {
					name, err := c.firstName(i)
					if err != nil {
						c.cmd.Process.Kill()
						c.cmd.Wait()
						t.Fatalf("round %d, after a restart on the file: %v", round, err)
					}
					if want := acked[i].Load(); want > 0 && seqOf(name) < want {
						lost++
						t.Errorf("round %d, writer %d: write %d was answered 200, the file holds %q", round, i, want, name)
					}
				}
				stop := make(chan struct{})
				var wg sync.WaitGroup
				var answered atomic.Int64
				for i := range writers {
					wg.Go(func() {
						client := &http.Client{Timeout: 5 * time.Second}
						for {
							select {
							case <-stop:
								return
							default:
							}
							n := seq.Add(1)
							body := fmt.Sprintf(userBody, writerEmail(i), fmt.Sprintf("w%d-%d", i, n))
							req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/users/%d", c.base, writerUser(i)), strings.NewReader(body))
							req.Header.Set("Authorization", "api-key "+writerKey(i))
							res, err := client.Do(req)
							if err != nil {
								return // the mock is gone
							}
							io.Copy(io.Discard, res.Body)
							res.Body.Close()
							if res.StatusCode == 200 {
								answered.Add(1)
								for {
									old := acked[i].Load()
									if n <= old || acked[i].CompareAndSwap(old, n) {
										break
									}
								}
							}
						}
					})
				}
				time.Sleep(time.Duration(50+rng.IntN(250)) * time.Millisecond)
				c.cmd.Process.Signal(sig)
				c.cmd.Wait()
				close(stop)
				wg.Wait()
				total += int(answered.Load())
			}
			c := startChild(t, state, tc.args...)
			for i := range writers {
				name, err := c.firstName(i)
				if err != nil {
					t.Fatal(err)
				}
				if want := acked[i].Load(); want > 0 && seqOf(name) < want {
					lost++
					t.Errorf("after the last round, writer %d holds %q, want write %d or a later one", i, name, want)
				}
			}
			c.cmd.Process.Signal(syscall.SIGTERM)
			c.cmd.Wait()
			t.Logf("%s: %d rounds, %d writes answered 200, %d lost", tc.name, *crashRounds, total, lost)
			if total == 0 {
				t.Error("no write was answered: the test proves nothing")
			}
		})
	}
}

// Finding "SIGTERM at the end of its grace": of 30 writes delayed to end
// around the 5 s the mock gives requests in flight after SIGTERM, 10 were
// answered 200 and not on disk. Now a write that ends before the grace is
// answered once on disk, and one that ends after it is not answered 200.
func TestTermAtTheEndOfTheGrace(t *testing.T) {
	testenv.SkipShort(t, "-short: the test builds and stops a mock")
	t.Parallel()
	const writers = 30
	state := filepath.Join(t.TempDir(), "state.json")
	c := startChild(t, state, "--accounts", strconv.Itoa(writers))
	statuses := make([]int, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			// From 4.6 s to 5.47 s: the grace ends among them.
			delay := 4600*time.Millisecond + time.Duration(i)*30*time.Millisecond
			body := fmt.Sprintf(userBody, writerEmail(i), fmt.Sprintf("w%d-1", i))
			req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/users/%d", c.base, writerUser(i)), strings.NewReader(body))
			req.Header.Set("Authorization", "api-key "+writerKey(i))
			req.Header.Set("X-Mock-Delay", delay.String())
			res, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
			if err != nil {
				return // the mock went before answering: no promise made
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			statuses[i] = res.StatusCode
		})
	}
	time.Sleep(300 * time.Millisecond) // every request is in flight
	c.cmd.Process.Signal(syscall.SIGTERM)
	c.cmd.Wait()
	wg.Wait()

	again := startChild(t, state, "--accounts", strconv.Itoa(writers))
	defer func() {
		again.cmd.Process.Signal(syscall.SIGTERM)
		again.cmd.Wait()
	}()
	acked, lost := 0, 0
	for i, status := range statuses {
		if status != http.StatusOK {
			continue
		}
		acked++
		name, err := again.firstName(i)
		if err != nil {
			t.Fatal(err)
		}
		if name != fmt.Sprintf("w%d-1", i) {
			lost++
			t.Errorf("writer %d was answered 200, the file holds %q", i, name)
		}
	}
	t.Logf("%d of %d delayed writes answered 200 around the end of the grace, %d lost; statuses %v", acked, writers, lost, statuses)
	if acked == 0 {
		t.Error("no write was answered 200: the test proves nothing")
	}
}

// put changes writer i's first name to name on a running child: the status.
func (c *child) put(i int, name string) (int, error) {
	body := fmt.Sprintf(userBody, writerEmail(i), name)
	req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/users/%d", c.base, writerUser(i)), strings.NewReader(body))
	req.Header.Set("Authorization", "api-key "+writerKey(i))
	return statusOf(&http.Client{Timeout: 10 * time.Second}, req)
}

// statusOf sends req with client and reads the answer to its end: its
// status.
func statusOf(client *http.Client, req *http.Request) (int, error) {
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// Finding "no lock on the state file": a second start on the file of a
// running mock, which then failed on the taken port, had already folded
// and deleted the first one's log; 5 of 5 writes the first answered after
// it were lost to a SIGKILL. Now the second exits 2 before it touches the
// files, and every write the first answered survives.
func TestSecondMockKeepsTheFirstsWrites(t *testing.T) {
	testenv.SkipShort(t, "-short: the test builds and kills mocks")
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	first := startChild(t, state)
	defer func() {
		first.cmd.Process.Kill()
		first.cmd.Wait()
	}()
	n := 0
	for range 5 {
		n++
		if code, err := first.put(0, fmt.Sprintf("w0-%d", n)); err != nil || code != 200 {
			t.Fatalf("PUT: %d %v", code, err)
		}
	}
	// The same port too, as when a developer starts the mock twice.
	addr := strings.TrimSuffix(strings.TrimPrefix(first.base, "http://"), "/v1")
	var stderr strings.Builder
	second := exec.Command(builtMock(t), "--addr", addr, "--state", state, "--accounts", "8")
	second.Stderr = &stderr
	err := second.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "another pricing-mock serves it") {
		t.Errorf("a second mock on the file: %v, stderr %q; want exit 2 and one line saying another mock serves it", err, stderr.String())
	}
	for range 5 {
		n++
		if code, err := first.put(0, fmt.Sprintf("w0-%d", n)); err != nil || code != 200 {
			t.Fatalf("PUT after the second start: %d %v", code, err)
		}
	}
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.cmd.Wait()
	again := startChild(t, state)
	defer func() {
		again.cmd.Process.Signal(syscall.SIGTERM)
		again.cmd.Wait()
	}()
	name, err := again.firstName(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := seqOf(name); got != int64(n) {
		t.Errorf("after a SIGKILL the file holds write %d (%q), want the last one answered, %d", got, name, n)
	}
}

// markerDoc is import k's state: one user, 1000+k, named "k-0", whose api
// key is crash-key-k.
func markerDoc(k int) string {
	return fmt.Sprintf(`{"users":[{"id":%d,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z",`+
		`"email":"marker-%d@example.com","password":"marker-password","apiKeys":["crash-key-%d"],"firstName":"%d-0","lastName":"Crash",`+
		`"phoneCountryId":1,"phoneNumber":"7700900000","phoneExtension":null,"timezone":"UTC","clientIds":[]}],`+
		`"clients":[],"apps":[],"sessions":[]}`, 1000+k, k, k, k)
}

// opStep is a step of TestCrashDuringImports: operation k (an import when k
// is even, a reset when odd) and the j-th write after it (0: the operation).
type opStep struct{ k, j int }

func (a opStep) before(b opStep) bool { return a.k < b.k || a.k == b.k && a.j < b.j }

// stateStep reads which step a restarted child's state is: the marker user
// of an import, or the seed after a reset with account A's first name
// "k-j" (j 0 when it still has the seed's name, and k is then unknown: -1).
// A state with a marker beside the seed, or two markers, is a mix.
func (c *child) stateStep() (opStep, error) {
	res, err := http.Get(strings.TrimSuffix(c.base, "/v1") + "/__admin/state")
	if err != nil {
		return opStep{}, err
	}
	defer res.Body.Close()
	var st struct {
		Users []struct {
			ID        int    `json:"id"`
			FirstName string `json:"firstName"`
		} `json:"users"`
	}
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		return opStep{}, err
	}
	var markers, seeded []string
	step := opStep{k: -1}
	for _, u := range st.Users {
		if u.ID >= 1000 {
			markers = append(markers, fmt.Sprintf("%d %q", u.ID, u.FirstName))
		} else {
			seeded = append(seeded, fmt.Sprintf("%d %q", u.ID, u.FirstName))
		}
		if u.ID >= 1000 || u.ID == 1 {
			if k, j, ok := strings.Cut(u.FirstName, "-"); ok {
				step.k, _ = strconv.Atoi(k)
				step.j, _ = strconv.Atoi(j)
			}
		}
	}
	if len(markers) > 1 || len(markers) == 1 && len(seeded) > 0 {
		return opStep{}, fmt.Errorf("a mix of states: imported users %v beside users %v", markers, seeded)
	}
	return step, nil
}

// Finding "an import or reset killed right after its snapshot is renamed
// in comes back as a mix of old and new" (12 of 20 with a plain SIGKILL
// right after the rename). One client imports a state (a user of its own),
// writes it three times, resets, writes account A three times, and so on,
// while the mock is killed at random; every restart must hold one state
// the client went through, never a mix, and none before the last answered.
func TestCrashDuringImports(t *testing.T) {
	testenv.SkipShort(t, "-short: the crash test builds and kills a mock")
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	rng := rand.New(rand.NewPCG(28, 1))
	acked := opStep{k: -1}
	k, ops, mixes, lost := 0, 0, 0, 0
	check := func(c *child, when string) {
		got, err := c.stateStep()
		switch {
		case err != nil:
			mixes++
			t.Errorf("%s: %v", when, err)
		case got.k == -1 && (acked.k == -1 || acked.k%2 == 1 && acked.j == 0 || acked.j == 3 && (acked.k+1)%2 == 1):
			// The seed: the reset answered last (or one before it,
			// which left the same state), or the one under way.
		case got.before(acked):
			lost++
			t.Errorf("%s: the state is step %+v, before step %+v, which was answered", when, got, acked)
		}
	}
	for round := range *crashRounds {
		c := startChild(t, state)
		check(c, fmt.Sprintf("round %d", round))
		admin := strings.TrimSuffix(c.base, "/v1") + "/__admin"
		client := &http.Client{Timeout: 5 * time.Second}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ; ; k++ {
				var req *http.Request
				if k%2 == 0 {
					req, _ = http.NewRequest("PUT", admin+"/state", strings.NewReader(markerDoc(k)))
				} else {
					req, _ = http.NewRequest("POST", admin+"/reset", nil)
				}
				st, err := statusOf(client, req)
				if err != nil {
					return
				}
				if st != 200 {
					t.Errorf("operation %d: %d", k, st)
					return
				}
				acked, ops = opStep{k: k}, ops+1
				for j := 1; j <= 3; j++ {
					user, key, email := 1000+k, fmt.Sprintf("crash-key-%d", k), fmt.Sprintf("marker-%d@example.com", k)
					if k%2 == 1 {
						user, key, email = writerUser(0), writerKey(0), writerEmail(0)
					}
					body := fmt.Sprintf(userBody, email, fmt.Sprintf("%d-%d", k, j))
					req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/users/%d", c.base, user), strings.NewReader(body))
					req.Header.Set("Authorization", "api-key "+key)
					st, err := statusOf(client, req)
					if err != nil {
						return
					}
					if st != 200 {
						t.Errorf("write %d-%d: %d", k, j, st)
						return
					}
					acked = opStep{k, j}
				}
			}
		}()
		time.Sleep(time.Duration(50+rng.IntN(250)) * time.Millisecond)
		c.cmd.Process.Signal(syscall.SIGKILL)
		c.cmd.Wait()
		<-done
		k++ // the operation under way when killed may or may not be in the file
	}
	c := startChild(t, state)
	check(c, "after the last round")
	c.cmd.Process.Signal(syscall.SIGTERM)
	c.cmd.Wait()
	t.Logf("%d rounds, %d imports and resets answered, %d restarts a mix, %d lost an answered step", *crashRounds, ops, mixes, lost)
	if ops == 0 {
		t.Error("no import or reset was answered: the test proves nothing")
	}
}
