# revisit — the two commands that matter: `make demo` and `make test`.
# BIN is where the binary goes, DEMO the folder the demo writes (both in
# the checkout unless given: make demo BIN=/tmp/revisit DEMO=/tmp/demo).
GO      ?= go
BIN     ?= bin/revisit
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
DEMO    ?= demo-out

.PHONY: all build test test-deps bench demo lint fuzz clean

all: build

build:
	@test -x $(BIN) || echo "building $(BIN): the first build downloads and compiles the dependencies (about 2–3 minutes on 2 cores)"
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/revisit

# Everything the tests need beyond Go (DuckDB for interop checks, Chromium
# for the report test, xz and 7z for the decoder tests) is installed by
# scripts/ when it is missing.
test-deps:
	@bash scripts/install-test-deps.sh

test: test-deps
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...

# staticcheck is pinned and installed into .tools/ (gitignored) on first use.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK         ?= .tools/staticcheck-$(STATICCHECK_VERSION)

$(STATICCHECK):
	@mkdir -p .tools
	GOBIN=$(CURDIR)/.tools/bin-$(STATICCHECK_VERSION) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@cp .tools/bin-$(STATICCHECK_VERSION)/staticcheck $@

lint: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || (echo "gofmt: files above need formatting" && exit 1)

bench: build
	@bash bench/run.sh

demo: build
	@bash scripts/demo.sh "$(BIN)" "$(DEMO)"

# Fuzz the parsers for a few minutes each (crashers land in testdata/fuzz).
fuzz:
	$(GO) test -run XXX -fuzz=FuzzMediaWiki -fuzztime=3m ./ingest/mediawiki
	$(GO) test -run XXX -fuzz=FuzzYelp -fuzztime=3m ./ingest/yelp

# Only what build and demo wrote: DEMO may be a folder that holds other
# files, and BIN's folder other programs.
clean:
	@test -n "$(DEMO)" -a -n "$(BIN)" || { echo "make clean: BIN and DEMO must not be empty"; exit 2; }
	rm -f $(BIN)
	rm -rf $(DEMO)/corpus $(DEMO)/simulate $(DEMO)/simulate.txt $(DEMO)/generated $(DEMO)/anarchism
	-rmdir $(DEMO) $(dir $(BIN)) 2>/dev/null
