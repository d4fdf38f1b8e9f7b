# Fieldwatch — see README.md. `make run` starts the demo; `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO        ?= go
GOPKGS    := ./cmd/... ./internal/... ./tools/... ./web
BIN       := bin/fieldwatch
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
ADDR      ?= :8080
MQTT      ?= :1883
DATA      ?= ./data
PGBENCH   ?= postgres://postgres@127.0.0.1:5432/test?sslmode=disable
WEB_SRC   := $(shell find web/src web/public web/index.html web/vite.config.ts web/tsconfig.json web/package.json -type f 2>/dev/null)
GO_SRC    := $(shell find cmd internal web -name '*.go' -not -path 'web/node_modules/*' 2>/dev/null) $(shell find internal -name '*.sql' -o -name '*.json' 2>/dev/null) go.mod go.sum

.PHONY: help run build web test test-go test-web test-e2e browser-deps bench fuzz ci clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

run: build ## build everything and start the demo farm (ADDR=:8080, MQTT=:1883, DATA=./data)
	$(BIN) serve --demo --addr $(ADDR) --mqtt $(MQTT) --data $(DATA)

build: $(BIN) ## build the web app and the fieldwatch binary

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	cd web && npm run build

web: web/dist/index.html ## build the web app into web/dist

$(BIN): web/dist/index.html $(GO_SRC)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/fieldwatch

# Go and web unit tests run side by side (each leaves much of the two cores idle), each one's output
# printed whole when it ends; then the browser flows, which want the machine to themselves.
test: ## every test: Go (SQLite + PostgreSQL), web unit, browser
	$(MAKE) --no-print-directory -j2 --output-sync=target test-go test-web
	$(MAKE) --no-print-directory test-e2e

# Pebble, Let's Encrypt's ACME test server, for the ACME test (not a Debian package).
PEBBLE    := bin/tools/pebble
$(PEBBLE):
	GOBIN=$(CURDIR)/bin/tools $(GO) install github.com/letsencrypt/pebble/v2/cmd/pebble@v2.10.3

# vet runs with the binary's build settings, so the packages it compiles are reused by $(BIN).
test-go: $(PEBBLE) ## Go tests; PostgreSQL when reachable (mandatory with CI=true)
	@scripts/test-deps.sh
	CGO_ENABLED=0 $(GO) vet -trimpath -tags no_ui $(GOPKGS)
	# -timeout is the runner's limit for a package, not an assertion: the whole-server tests of
	# internal/app take about ten minutes under the race detector on two cores (go's default limit).
	FIELDWATCH_PEBBLE=$(CURDIR)/$(PEBBLE) $(GO) test -race -timeout 30m -tags no_ui -count=1 $(GOPKGS)

test-web: web/node_modules/.package-lock.json ## web type check, lint and unit tests
	cd web && npm run check

test-e2e: browser-deps $(BIN) ## Playwright flows in Chromium against the real binary
	cd web && GO=$(GO) FIELDWATCH_BIN=$(CURDIR)/$(BIN) npm run test:e2e

browser-deps: ## install Chromium and a CJK font when missing (as root), else say how
	@scripts/browser-deps.sh

bench: ## benchmarks and the ingest load test (results go in docs/performance.md)
	$(GO) test -tags no_ui -run '^$$' -bench . -benchmem $(GOPKGS)
	$(GO) run -tags no_ui ./cmd/fieldwatch bench ingest
	$(GO) run -tags no_ui ./cmd/fieldwatch bench alerts
	$(GO) run -tags no_ui ./cmd/fieldwatch bench push
	$(GO) run -tags no_ui ./cmd/fieldwatch bench commands
	$(GO) run -tags no_ui ./cmd/fieldwatch bench connections --devices 10000
	@if (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then \
		$(GO) run -tags no_ui ./cmd/fieldwatch bench ingest --db '$(PGBENCH)'; \
		$(GO) run -tags no_ui ./cmd/fieldwatch bench push --db '$(PGBENCH)'; \
		$(GO) run -tags no_ui ./cmd/fieldwatch bench cluster --db '$(PGBENCH)' --nodes 3; \
	else echo "PostgreSQL not reachable on 127.0.0.1:5432: skipping its ingest benchmark"; fi
	$(MAKE) --no-print-directory build
	cd web && node scripts/lighthouse.mjs

FUZZTIME ?= 30s
fuzz: ## run every fuzz target for FUZZTIME each (default 30s)
	$(GO) test -tags no_ui -run '^$$' -fuzz FuzzDecodeTelemetry -fuzztime $(FUZZTIME) ./internal/ingest
	$(GO) test -tags no_ui -run '^$$' -fuzz FuzzDecodeStatus -fuzztime $(FUZZTIME) ./internal/ingest
	$(GO) test -tags no_ui -run '^$$' -fuzz FuzzAuthenticate -fuzztime $(FUZZTIME) ./internal/openapi
	$(GO) test -tags no_ui -run '^$$' -fuzz FuzzSignature_OtherRequest -fuzztime $(FUZZTIME) ./internal/openapi
	$(GO) test -tags no_ui -run '^$$' -fuzz FuzzRule_Validate -fuzztime $(FUZZTIME) ./internal/rules
	$(GO) test -tags no_ui -run '^$$' -fuzz FuzzExpression_Judge -fuzztime $(FUZZTIME) ./internal/rules

ci: ## what .ci/run does
	CI=true $(MAKE) test

clean: ## remove build output
	rm -rf bin web/dist/assets web/dist/index.html
