package linear_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore/linear"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

func store(t testing.TB) *pricing.Store {
	t.Helper()
	seed, err := pricing.LoadSeed(fixtures.Seed())
	if err != nil {
		t.Fatal(err)
	}
	return pricing.NewStore(seed, pricing.NewSource(nil), pricing.Deviations{})
}

const userA = `{"email":%q,"firstName":%q,"lastName":"A","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"timezone":"Europe/London","password":null}`

func put(user int, key, email, first string) api.Request {
	return api.Request{Method: "PUT", Path: fmt.Sprintf("/v1/users/%d", user), Header: http.Header{"Authorization": {"api-key " + key}},
		Body: []byte(fmt.Sprintf(userA, email, first))}
}

func get(user int, key string) api.Request {
	return api.Request{Method: "GET", Path: fmt.Sprintf("/v1/users/%d", user), Header: http.Header{"Authorization": {"api-key " + key}}}
}

func answer(status int, email, first string) linear.Answer {
	return linear.Answer{Status: status, Body: []byte(fmt.Sprintf(`{"email":%q,"firstName":%q}`, email, first))}
}

// The histories of the fixed set: each is linearizable or not, as a serial
// order of its requests on the reference decides.
func TestHistories(t *testing.T) {
	const a, b = "qa-api-key", "other-api-key"
	agrees := linear.SameFields("email", "firstName")
	cases := []struct {
		name string
		ops  []linear.Op
		want bool
	}{
		{"two overlapping updates, each answered with its own record, one of them last", []linear.Op{
			{Lane: 0, Req: put(1, a, "qa@example.com", "X"), Got: answer(200, "qa@example.com", "X"), Call: 0, Return: 10},
			{Lane: 1, Req: put(1, a, "qa@example.com", "Y"), Got: answer(200, "qa@example.com", "Y"), Call: 1, Return: 9},
			{Lane: 0, Req: get(1, a), Got: answer(200, "qa@example.com", "X"), Call: 20, Return: 21},
		}, true},
		{"an update answered with the other request's record", []linear.Op{
			{Lane: 0, Req: put(1, a, "qa@example.com", "X"), Got: answer(200, "qa@example.com", "Y"), Call: 0, Return: 10},
			{Lane: 1, Req: put(1, a, "qa@example.com", "Y"), Got: answer(200, "qa@example.com", "Y"), Call: 1, Return: 9},
		}, false},
		{"an acknowledged update undone: the read after both shows neither", []linear.Op{
			{Lane: 0, Req: put(1, a, "qa@example.com", "X"), Got: answer(200, "qa@example.com", "X"), Call: 0, Return: 10},
			{Lane: 1, Req: put(1, a, "qa@example.com", "Y"), Got: answer(200, "qa@example.com", "Y"), Call: 1, Return: 9},
			{Lane: 0, Req: get(1, a), Got: answer(200, "qa@example.com", "Quinn"), Call: 20, Return: 21},
		}, false},
		{"the later of two updates in real time is the one left", []linear.Op{
			{Lane: 0, Req: put(1, a, "qa@example.com", "X"), Got: answer(200, "qa@example.com", "X"), Call: 0, Return: 5},
			{Lane: 1, Req: put(1, a, "qa@example.com", "Y"), Got: answer(200, "qa@example.com", "Y"), Call: 6, Return: 9},
			{Lane: 0, Req: get(1, a), Got: answer(200, "qa@example.com", "X"), Call: 20, Return: 21},
		}, false},
		{"two accounts claim one email: one takes it, the other is refused", []linear.Op{
			{Lane: 0, Req: put(1, a, "new@example.com", "Q"), Got: answer(200, "new@example.com", "Q"), Call: 0, Return: 10},
			{Lane: 1, Req: put(2, b, "new@example.com", "O"), Got: linear.Answer{Status: 400}, Call: 1, Return: 9},
		}, true},
		{"two accounts claim one email and both take it", []linear.Op{
			{Lane: 0, Req: put(1, a, "new@example.com", "Q"), Got: answer(200, "new@example.com", "Q"), Call: 0, Return: 10},
			{Lane: 1, Req: put(2, b, "new@example.com", "O"), Got: answer(200, "new@example.com", "O"), Call: 1, Return: 9},
		}, false},
		{"a refusal no order explains: both claims refused", []linear.Op{
			{Lane: 0, Req: put(1, a, "new@example.com", "Q"), Got: linear.Answer{Status: 409}, Call: 0, Return: 10},
			{Lane: 1, Req: put(2, b, "new@example.com", "O"), Got: linear.Answer{Status: 400}, Call: 1, Return: 9},
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := linear.Check(store(t), c.ops, agrees, 10*time.Second)
			if r.Unknown || r.Linearizable != c.want {
				t.Fatalf("linearizable %v (unknown %v), want %v; longest order %v", r.Linearizable, r.Unknown, c.want, r.Longest)
			}
		})
	}
}

// BenchmarkCheck1000 checks a history of 1,000 operations: 250 groups of
// four, each two overlapping updates of user A, one of user B and a read,
// one group after the other (what a long concurrent exploration of one
// pair records).
func BenchmarkCheck1000(b *testing.B) {
	st := store(b)
	var ops []linear.Op
	for g := 0; g < 250; g++ {
		t := int64(g) * 100
		x, y := fmt.Sprintf("X%d", g), fmt.Sprintf("Y%d", g)
		ops = append(ops,
			linear.Op{Lane: 0, Req: put(1, "qa-api-key", "qa@example.com", x), Got: answer(200, "qa@example.com", x), Call: t, Return: t + 10},
			linear.Op{Lane: 1, Req: put(1, "qa-api-key", "qa@example.com", y), Got: answer(200, "qa@example.com", y), Call: t + 1, Return: t + 9},
			linear.Op{Lane: 2, Req: put(2, "other-api-key", "other@example.com", x), Got: answer(200, "other@example.com", x), Call: t + 2, Return: t + 8},
			linear.Op{Lane: 0, Req: get(1, "qa-api-key"), Got: answer(200, "qa@example.com", y), Call: t + 20, Return: t + 21},
		)
	}
	b.ResetTimer()
	for range b.N {
		if r := linear.Check(st, ops, linear.SameFields("email", "firstName"), time.Minute); !r.Linearizable {
			b.Fatalf("a linearizable history judged otherwise (unknown %v)", r.Unknown)
		}
	}
}
