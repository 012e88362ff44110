# lwr — see README.md.
SHELL   := /bin/bash
GO      ?= go
BIN     := bin/lwr
CORPUS  ?= .bench/corpus
SAMPLE  := testdata/sample
DEMO    := .demo
# Fuzzing budgets count executions (a duration races Go 1.26's fuzz
# coordinator at its deadline: golang/go#75804); FUZZTIME overrides them all.
FUZZTIME ?=

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: build test test-short test-unit test-fuzz test-corpus test-windows demo bench check corpus dist clean

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/lwr

# Release archives for Windows, macOS and Linux (amd64 and arm64) with
# their SHA-256 checksums, in dist/.
dist:
	./scripts/dist.sh dist $(VERSION)

# Unit tests (race detector on), a short fuzzing budget, and, when the bench
# corpus has been built (make corpus), the tests that run over it; the last
# line says PASS or FAIL and where.
test:
	./scripts/test.sh

test-unit:
	$(GO) test -race -count=1 ./...

# The inner loop: every package's tests without the race detector, the
# fuzzing and the tests that start lwr processes (daemon, kill -9, signals).
test-short:
	$(GO) test -short -count=1 ./...

# Coverage-guided fuzzing of the code that reads what comes from outside:
# web results, source files, queries and the reports agents write.
test-fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzSanitizeText$$' -fuzztime $(or $(FUZZTIME),20000x) ./web
	$(GO) test -run '^$$' -fuzz '^FuzzImport$$' -fuzztime $(or $(FUZZTIME),60000x) ./web
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(or $(FUZZTIME),20000x) ./index
	$(GO) test -run '^$$' -fuzz '^FuzzParseDocument$$' -fuzztime $(or $(FUZZTIME),30000x) ./index
	$(GO) test -run '^$$' -fuzz '^FuzzParseQuery$$' -fuzztime $(or $(FUZZTIME),40000x) ./index
	$(GO) test -run '^$$' -fuzz '^FuzzQueryTokens$$' -fuzztime $(or $(FUZZTIME),20000x) ./analyzer
	$(GO) test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(or $(FUZZTIME),15000x) ./research/report
	$(GO) test -run '^$$' -fuzz '^FuzzDeepReport$$' -fuzztime $(or $(FUZZTIME),15000x) ./research/report
	$(GO) test -run '^$$' -fuzz '^FuzzNewSlug$$' -fuzztime $(or $(FUZZTIME),20000x) ./research/deep

test-corpus:
	@if [ -d "$(CORPUS)/manpages-ja" ]; then \
		LWR_BENCH_CORPUS=$(abspath $(CORPUS)) $(GO) test -count=1 -timeout 20m -run 'Corpus' -v ./index/ ./cmd/lwr/ | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s+corpus|\s+\S+_test.go)' ; \
		exit $${PIPESTATUS[0]}; \
	else \
		echo "test-corpus: $(CORPUS) not built (make corpus); corpus tests skipped"; \
	fi

corpus:
	./scripts/bench/make-corpus.sh $(CORPUS)

# Build, index the bundled sample corpus, search it, and run a research
# query offline; the last line links the report.
demo: build
	@rm -rf $(DEMO) && mkdir -p $(DEMO)/workspace
	@$(BIN) --source-root $(SAMPLE) --cache-dir $(DEMO)/cache index build
	@$(BIN) --source-root $(SAMPLE) --cache-dir $(DEMO)/cache search --max-files 3 --max-chars 240 契約 上限額
	@$(BIN) --source-root $(SAMPLE) --cache-dir $(DEMO)/cache research --skip-web --workspace $(DEMO)/workspace 随意契約の上限額はいくらか

bench: build
	./scripts/bench.sh $(CORPUS)

check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	GOOS=windows GOARCH=arm64 $(GO) build ./...
	GOOS=darwin $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	./scripts/check-imports.sh
	@echo "check: ok"

# The Windows build under Wine: package tests through the exec wrapper and
# an end-to-end run of lwr.exe (prepares the Wine prefix first).
test-windows:
	./scripts/test-windows.sh

clean:
	rm -rf bin dist $(DEMO)
