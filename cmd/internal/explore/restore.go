package explore

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Putting the pair's accounts back after a sequence (restore), and
// learning again what a run of the suite changed (redate, align).

// redate forgets the date of the account's password, set again (by a
// restore, or by the suite's own around a reproducer): the target tells it,
// where it can be read.
func (p *pair) redate(ctx context.Context, a *accountState) {
	a.mu.Lock()
	a.user.PasswordLastChanged = unknownDate
	a.mu.Unlock()
	p.run.k.forget(fmt.Sprintf("user:%s:passwordLastChanged:", a.userID))
	if p.wd.hasRead {
		p.wd.readAccount(ctx, p.w, a, false)
	}
}

// align writes each account's user and client as the world holds them,
// before the first sequence, on a target that cannot be read back: what the
// profile does not give (a phone extension, a name) the world can only
// assume, and until a restore wrote it the target's own value would look
// like a divergence that no reproducer repeats (every reproducer runs after
// a restore).
func (p *pair) align(ctx context.Context) {
	start, err := p.wd.newSequence()
	if err != nil {
		return
	}
	// A restore from the sequence's own start, on a target it cannot read
	// back, writes every account as the reference holds it.
	p.restore(ctx, start, false, []string{"A", "B"})
}

// restore puts the accounts a sequence changed back as it found them, on the
// target: each user and client whose state the reference changed (every
// one after a divergence, or where the target cannot be read back), the
// password where it no longer logs in, and after a sequence that logged
// in, a new session of each account. The writes go out at once. names are
// the accounts of the sequence's lane (A and B, or one of them).
func (p *pair) restore(ctx context.Context, s *seqState, diverged bool, names []string) {
	wd := p.wd
	start, err := wd.newSequence()
	if err != nil {
		return
	}
	loggedIn, putUser := false, false
	for _, st := range s.steps {
		loggedIn = loggedIn || st.Op == OpLogin
		putUser = putUser || st.Op == OpPutUser
	}
	all := diverged || !wd.hasRead
	p.restoreAccounts(ctx, start, s, all, names)
	if diverged {
		p.lists.forget()
	}
	if !loggedIn && !all && !putUser {
		return
	}
	// Every account logs in with the profile's password (a wrong server may
	// have stored one it refused); after a sequence that logged in, A then
	// B, as when the run began: a reproducer logs in in the same order, so
	// that a target whose sessions depend on the order of the logins
	// answers it as it answered the sequence.
	ok := p.restoreLogins(ctx, names, loggedIn)
	for _, name := range names {
		if ok[name] {
			continue
		}
		// The profile's password no longer logs in: set it again.
		a := wd.acct[name]
		ub := userBody(start.user(name))
		ub["password"] = a.password
		_, _, _ = p.w.put(ctx, "/users/"+a.userID, http.Header{"Authorization": {"api-key " + a.apiKey}}, Step{Base: ub}.Encode())
		p.redate(ctx, a)
		p.restoreLogin(ctx, name)
	}
}

// restoreAccounts writes back each account's user and client that the
// sequence s changed from start (every one, with all), all at once.
func (p *pair) restoreAccounts(ctx context.Context, start, s *seqState, all bool, names []string) {
	wd := p.wd
	var wg sync.WaitGroup
	for _, name := range names {
		a := wd.acct[name]
		h := http.Header{"Authorization": {"api-key " + a.apiKey}}
		u0, u1 := start.user(name), s.user(name)
		changed := s.password[name] != a.password
		c0, _ := start.ref.Client(refID(name))
		c1, _ := s.ref.Client(refID(name))
		wg.Add(1)
		go func() {
			defer wg.Done()
			var inner sync.WaitGroup
			if all || changed || fmt.Sprint(userBody(u0)) != fmt.Sprint(userBody(u1)) {
				ub := userBody(u0)
				if changed {
					// Only a password the sequence changed: setting it
					// again moves its date (a wrong server's change shows
					// at the login below).
					ub["password"] = a.password
				}
				inner.Add(1)
				go func() {
					defer inner.Done()
					_, _, _ = p.w.put(ctx, "/users/"+a.userID, h, Step{Base: ub}.Encode())
				}()
			}
			wroteClient := all || fmt.Sprint(clientBody(c0)) != fmt.Sprint(clientBody(c1))
			if wroteClient {
				inner.Add(1)
				go func() {
					defer inner.Done()
					_, _, _ = p.w.put(ctx, "/clients/"+a.clientID, h, Step{Base: clientBody(c0)}.Encode())
				}()
			}
			inner.Wait()
			switch {
			case changed:
				p.redate(ctx, a) // reads the account back too
			case wroteClient && wd.hasRead:
				// A body that leaves out an optional value the sequence
				// set cannot clear it on a target that keeps what a PUT
				// leaves out (freedom omitted-optional): the next sequence
				// starts from what the target holds.
				wd.readAccount(ctx, p.w, a, false)
			}
		}()
	}
	wg.Wait()
}

// restoreLogins logs each account in, in the order of names (inOrder) or
// all at once, and reports which logged in.
func (p *pair) restoreLogins(ctx context.Context, names []string, inOrder bool) map[string]bool {
	ok := map[string]bool{}
	if inOrder {
		for _, name := range names {
			ok[name] = p.restoreLogin(ctx, name)
		}
		return ok
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := p.restoreLogin(ctx, name)
			mu.Lock()
			ok[name] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	return ok
}

// restoreLogin logs an account in with the profile's password, and reports
// whether it did.
func (p *pair) restoreLogin(ctx context.Context, name string) bool {
	a := p.wd.acct[name]
	status, body, err := p.w.login(ctx, a.email, a.password)
	if err != nil || status != http.StatusOK {
		return false
	}
	// The login's session is the account's now: an older one may have
	// ended (freedom session-end: a password set again, a target that
	// keeps a bounded number of sessions).
	if tok := gjson.GetBytes(body, "token").String(); tok != "" {
		a.setToken(tok)
		p.run.k.mu.Lock()
		p.run.k.tokens[tok] = strconv.Itoa(p.n) + name
		p.run.k.mu.Unlock()
	}
	return true
}

// forget drops the learned values whose keys start with prefix.
func (k *knowledge) forget(prefix string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key := range k.learned {
		if strings.HasPrefix(key, prefix) {
			delete(k.learned, key)
		}
	}
}
