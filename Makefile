# The README's two commands are `go run ./cmd/pricing-mock` and `go test ./...`;
# these targets are conveniences around them.
GO ?= go
ADDR ?= 127.0.0.1:8080

.PHONY: mock test short race lint check contract mutation catalogue build bench crash explore explore-rate explore-lineages explore-correct fuzz release-snapshot image sizes

mock: ## run the mock server on $(ADDR)
	$(GO) run ./cmd/pricing-mock --addr $(ADDR)

short: ## the quick loop: unit tests and the suite against the mock once (README, "Tests: three tiers")
	$(GO) test -short ./...

test: ## every test, a fixed sample of the catalogue of servers included
	$(GO) test ./...

race: ## what CI runs with the race detector (the catalogue skips itself there)
	$(GO) test -race ./...

catalogue: ## every server of the catalogue, wrong ones killed and legal ones passing, and the explorer's rate on a sample: CI's last step (the whole rate: make explore-rate)
	$(GO) test -count=1 -timeout 30m ./cmd/pricing-mutation -run TestCatalogue -v -parallel 4 -args -catalogue
	$(GO) test -count=1 -timeout 30m ./cmd/internal/explore/servers -run 'TestRateSample|TestNothingAgainstCorrectServers' -v

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GORELEASER ?= github.com/goreleaser/goreleaser/v2@v2.15.1

lint: ## gofmt, go vet, staticcheck, a tidy go.mod, the three import groups, and actionlint on the CI action (pinned versions, fetched by go run)
	@out="$$(gofmt -l $$(git ls-files '*.go'))"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
	$(GO) run ./cmd/internal/importgroups
	.ci/actionlint

release-snapshot: ## the release archives of .ci/goreleaser.yaml, six platforms, checksums and SBOMs, into bin/release/, published nowhere (the first run compiles goreleaser: minutes)
	$(GO) run $(GORELEASER) release --snapshot --clean --config .ci/goreleaser.yaml

image: ## the container images of pricing-mock and pricing-contract, linux/amd64 and linux/arm64, as OCI image layouts in bin/image/ (no container daemon)
	$(GO) run ./cmd/internal/imagebuild --out bin/image --version "$$(git describe --tags --always --dirty 2>/dev/null || echo dev)" --commit "$$(git rev-parse HEAD 2>/dev/null)"

build: ## the three binaries in bin/, each with --version
	$(GO) build -o bin/ ./cmd/pricing-contract ./cmd/pricing-mock ./cmd/pricing-mutation

contract: ## the suite against a running server: make contract BASE_URL=http://127.0.0.1:8080/v1
	$(GO) run ./cmd/pricing-contract --base-url $(or $(BASE_URL),http://$(ADDR)/v1)

mutation: ## the suite against the mock with each fault: every fault must be killed
	$(GO) run ./cmd/pricing-mutation

bench: ## the spec scenarios against a mock 30 ms away with 8 pairs of accounts, at concurrency 1 and 16
	$(GO) run ./cmd/pricing-bench --runs 3

check: lint race catalogue

sizes: ## the README's measures of the code ("Layout"): the non-test Go files over 600 lines and the functions over 80 lines
	$(GO) test -count=1 -run '^TestSizes$$' -v ./cmd/internal/importgroups

crash: ## the state file's crash tests, many rounds: SIGKILL (in compactions too) and SIGTERM under eight writers, SIGKILL under imports and resets, SIGTERM at the end of the grace, a second mock on the file; 0 acknowledged writes lost, no mix
	$(GO) test ./cmd/pricing-mock -run 'TestCrashLosesNoAcknowledgedWrite|TestCrashDuringImports|TestTermAtTheEndOfTheGrace|TestSecondMockKeepsTheFirstsWrites' -count=1 -v -args -crash.rounds=$(or $(ROUNDS),60)

explore: ## differential exploration of a running target: make explore BASE_URL=http://127.0.0.1:8080/v1 BUDGET=10m
	$(GO) run ./cmd/pricing-contract explore --base-url $(or $(BASE_URL),http://$(ADDR)/v1) --budget $(or $(BUDGET),60s)

explore-rate: ## the explorer's rate over every server (built-in defects, blind audits, lineages and their faults), BUDGET each (default 30s), seed 7
	$(GO) test ./cmd/internal/explore/servers -run TestExploreRate -count=1 -v -timeout 0 -args -explore.rate=$(or $(BUDGET),30s)

explore-lineages: ## the explorer against each lineage's correct server with 5 seeds of BUDGET each (default 30s): no divergence
	$(GO) test ./cmd/internal/explore/servers -run TestLineagesWithFiveSeeds -count=1 -v -timeout 0 -args -explore.lineages=$(or $(BUDGET),30s)

explore-correct: ## the explorer against every correct server (the mock, the team's legal variants, the blind audits' and the lineages' correct servers) with 5 seeds of BUDGET each (default 30s): no divergence
	$(GO) test ./cmd/internal/explore/servers -run TestCorrectServersWithFiveSeeds -count=1 -v -timeout 0 -args -explore.correct=$(or $(BUDGET),30s)

fuzz: ## each fuzz target for FUZZTIME (default 30s): the mock's bodies and paths, the replay's recordings, the lineages' own servers; a failing input lands in the package's testdata/fuzz and then runs with every go test
	$(GO) test ./mockserver -run '^$$' -fuzz '^FuzzJSONBodies$$' -fuzztime $(or $(FUZZTIME),30s)
	$(GO) test ./mockserver -run '^$$' -fuzz '^FuzzPathAndQuery$$' -fuzztime $(or $(FUZZTIME),30s)
	$(GO) test ./cmd/internal/replay -run '^$$' -fuzz '^FuzzRecording$$' -fuzztime $(or $(FUZZTIME),30s)
	$(GO) test ./mockserver/variants/lineages/third_party/tables -run '^$$' -fuzz '^FuzzBodies$$' -fuzztime $(or $(FUZZTIME),30s)
	$(GO) test ./mockserver/variants/lineages/third_party/events -run '^$$' -fuzz '^FuzzEndpoints$$' -fuzztime $(or $(FUZZTIME),30s)
