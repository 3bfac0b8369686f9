# The README's two commands are `go run ./cmd/pricing-mock` and `go test ./...`;
# these targets are conveniences around them.
GO ?= go
ADDR ?= 127.0.0.1:8080

.PHONY: mock test race lint check contract mutation build bench crash explore explore-rate

mock: ## run the mock server on $(ADDR)
	$(GO) run ./cmd/pricing-mock --addr $(ADDR)

test: ## every test, the contract suite against an in-process mock included
	$(GO) test ./...

race: ## what CI runs
	$(GO) test -race ./...

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: ## gofmt, go vet and staticcheck (the pinned version, fetched by go run)
	@out="$$(gofmt -l $$(git ls-files '*.go'))"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

build: ## the three binaries in bin/, each with --version
	$(GO) build -o bin/ ./cmd/pricing-contract ./cmd/pricing-mock ./cmd/pricing-mutation

contract: ## the suite against a running server: make contract BASE_URL=http://127.0.0.1:8080/v1
	$(GO) run ./cmd/pricing-contract --base-url $(or $(BASE_URL),http://$(ADDR)/v1)

mutation: ## the suite against the mock with each fault: every fault must be killed
	$(GO) run ./cmd/pricing-mutation

bench: ## the spec scenarios against a mock 30 ms away with 8 pairs of accounts, at concurrency 1 and 16
	$(GO) run ./cmd/pricing-bench --runs 3

check: lint race

crash: ## the state file's crash tests, many rounds: SIGKILL (in compactions too) and SIGTERM under eight writers, SIGKILL under imports and resets, SIGTERM at the end of the grace, a second mock on the file; 0 acknowledged writes lost, no mix
	$(GO) test ./cmd/pricing-mock -run 'TestCrashLosesNoAcknowledgedWrite|TestCrashDuringImports|TestTermAtTheEndOfTheGrace|TestSecondMockKeepsTheFirstsWrites' -count=1 -v -args -crash.rounds=$(or $(ROUNDS),60)

explore: ## differential exploration of a running target: make explore BASE_URL=http://127.0.0.1:8080/v1 BUDGET=10m
	$(GO) run ./cmd/pricing-contract explore --base-url $(or $(BASE_URL),http://$(ADDR)/v1) --budget $(or $(BUDGET),60s)

explore-rate: ## the explorer's rate over every built-in defect (at most RUNS sequences and 60 s each, seed 7)
	$(GO) test ./cmd/internal/explore -run TestExploreRate -count=1 -v -timeout 0 -args -explore.rate=$(or $(RUNS),300)
