// Package pricing is the domain of the Pricing Service API as the reference
// mock implements it: the rules of the spec (../shared/spec/pricing-api.md
// from the repository root) with no HTTP in them.
//
//   - store.go: Store, the users, clients, apps, sessions and catalogues of
//     one namespace behind an RWMutex, handing out copies, with its
//     constructors and its count of writes; its methods by resource in
//     store_users.go, store_clients.go, store_apps.go, store_sessions.go
//     (credentials and logins) and store_catalogues.go, who may act on a
//     user or a client (spec section 5) in store_permissions.go, and its
//     reset to a seed in store_seed.go.
//   - fields.go: the field tables, every field of the spec's bodies and
//     objects once (its type, optionality, limits, PUT rule and code),
//     which validation reads and every other list of fields is held to.
//   - validate.go: Validator, which turns a decoded request body into typed
//     input or the field errors of spec 7.3; a user body's checks in
//     validate_users.go.
//   - codes.go: the one table of error codes and their HTTP statuses, and
//     FieldError, the element of every error answer.
//   - state.go: State, the document of the admin API's state export and
//     import and of the fixtures' users, clients and apps, with its checks.
//   - seed.go: LoadSeed, the fixtures and the target Profile they describe.
//   - deviations.go: Deviations, the departures from the spec that the wrong
//     servers of mockserver/variants ask for; the zero value is the spec.
//   - rand.go: Source, every random value and date, repeatable under a seed.
//   - secret.go: Secret, the key of the HMACs the store keeps of passwords,
//     API keys and session tokens.
//   - limits.go: Limits and Pool, the bounds of what a store keeps, the
//     estimated sizes charged to them, and the store's checks of both.
//
// The package imports neither net/http nor Gin nor the wrong servers (a
// test holds it to that): mockserver adapts it to HTTP, mockserver/variants
// breaks it on purpose from the outside.
package pricing
