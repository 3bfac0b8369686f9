package pricing

import "testing"

// A clone answers as its store did, and what either writes afterwards the
// other never sees.
func TestCloneIsIndependent(t *testing.T) {
	st := newTestStore(t, nil)
	c := st.Clone()
	u, _ := st.User(1)
	in := UserInput{Email: "clone@example.com", FirstName: "Clone", LastName: u.LastName, Timezone: u.Timezone}
	if _, err := c.UpdateUser(1, in); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.User(1); got.FirstName != u.FirstName || got.Email != u.Email {
		t.Fatalf("the store sees its clone's write: %+v", got)
	}
	if got, _ := c.User(1); got.FirstName != "Clone" {
		t.Fatalf("the clone lost its write: %+v", got)
	}
	if !c.EmailTaken("clone@example.com", 0) || st.EmailTaken("clone@example.com", 0) {
		t.Fatal("the email index is shared")
	}
	if _, err := st.CreateSession(2); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Authenticate(u.Email, "qa-password"); err == nil {
		t.Fatal("the clone's user logs in with the email it replaced")
	}
	if _, err := c.Authenticate("clone@example.com", "qa-password"); err != nil {
		t.Fatalf("the clone's user does not log in with its email and password: %v", err)
	}
}
