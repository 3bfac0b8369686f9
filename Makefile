# The README's two commands are `go run ./cmd/pricing-mock` and `go test ./...`;
# these targets are conveniences around them.
GO ?= go
ADDR ?= 127.0.0.1:8080

.PHONY: mock test race lint check contract mutation build bench crash explore explore-rate explore-lineages release-snapshot image

mock: ## run the mock server on $(ADDR)
	$(GO) run ./cmd/pricing-mock --addr $(ADDR)

test: ## every test, the contract suite against an in-process mock included
	$(GO) test ./...

race: ## what CI runs
	$(GO) test -race ./...

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GORELEASER ?= github.com/goreleaser/goreleaser/v2@v2.15.1

lint: ## gofmt, go vet, staticcheck, a tidy go.mod, and actionlint on the CI action (pinned versions, fetched by go run)
	@out="$$(gofmt -l $$(git ls-files '*.go'))"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
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

check: lint race

crash: ## the state file's crash tests, many rounds: SIGKILL (in compactions too) and SIGTERM under eight writers, SIGTERM at the end of the grace; 0 acknowledged writes lost
	$(GO) test ./cmd/pricing-mock -run 'TestCrashLosesNoAcknowledgedWrite|TestTermAtTheEndOfTheGrace' -count=1 -v -args -crash.rounds=$(or $(ROUNDS),60)

explore: ## differential exploration of a running target: make explore BASE_URL=http://127.0.0.1:8080/v1 BUDGET=10m
	$(GO) run ./cmd/pricing-contract explore --base-url $(or $(BASE_URL),http://$(ADDR)/v1) --budget $(or $(BUDGET),60s)

explore-rate: ## the explorer's rate over every server (built-in defects, blind audits, lineages and their faults), BUDGET each (default 30s), seed 7
	$(GO) test ./cmd/internal/explore/servers -run TestExploreRate -count=1 -v -timeout 0 -args -explore.rate=$(or $(BUDGET),30s)

explore-lineages: ## the explorer against each lineage's correct server with 5 seeds of BUDGET each (default 30s): no divergence
	$(GO) test ./cmd/internal/explore/servers -run TestLineagesWithFiveSeeds -count=1 -v -timeout 0 -args -explore.lineages=$(or $(BUDGET),30s)
