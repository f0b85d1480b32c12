# Stillpoint: `make run` builds and serves the demo site; `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

BIN      := target/release/stillpoint
DEMO     := examples/demo
DEMO_OUT := $(DEMO)/dist
HOST     ?= 127.0.0.1
PORT     ?= 8080
CHROMIUM ?= /usr/bin/chromium

.PHONY: run build web deps nasm test test-build test-rust test-web test-release release e2e lint chromium bench bench-dev bench-incremental bench-serve bench-deploy clean s3-server

## Install the web dependencies (npm ci) when package-lock.json changes.
deps: web/node_modules/.package-lock.json
web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

## Build the web bundle (client assets and the SSR worker) into web/dist.
web: deps
	cd web && npm run build

## The AVIF encoder's assembly needs nasm (installed here when missing).
nasm:
	@command -v nasm >/dev/null || { apt-get update -qq && apt-get install -y -qq nasm; }

## Build everything: the web bundle, then the release binary, which embeds it (crates/cli/build.rs).
build: web nasm
	cargo build --release --locked -p stillpoint
	@echo "Built $(BIN)"

## Build the demo site and serve it.
run: build
	$(BIN) build $(DEMO) --out $(DEMO_OUT)
	@echo "Stillpoint demo: http://$(HOST):$(PORT)"
	$(BIN) serve $(DEMO_OUT) --host $(HOST) --port $(PORT)

## Every test: lints, Rust unit and integration tests, component tests, browser end-to-end tests.
## The tests need no release build: the browser and release tests run the test build's executable.
test: lint test-web test-rust e2e test-release test-fuzz

## The test build: every test binary and $(TEST_BIN), which the browser tests and the release
## artifacts' test run too, so the dependencies are compiled for one profile only.
TEST_BIN := target/debug/stillpoint
test-build: web nasm
	cargo nextest run --workspace --locked --no-run

lint: deps nasm
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cd web && npm run typecheck && npm run lint && npm run lint:workflows

test-web: deps
	cd web && npm test

test-rust: test-build s3-server
	STILLPOINT_MOTO_SERVER=$(CURDIR)/$(S3_VENV)/bin/moto_server \
	STILLPOINT_WEB=$(CURDIR)/web/dist cargo nextest run --workspace --locked --no-fail-fast

## Fuzz targets (docs/fuzzing.md; crates/fuzz): each replays its corpus, then generated inputs for
## a time budget, the three side by side. `test-fuzz`, part of `make test`, gives each
## TEST_FUZZ_SECONDS (default 20); `fuzz` gives each FUZZ_SECONDS (default 300). An input that
## breaks a target is saved into crates/fuzz/corpus/<target>/ and the run fails naming it.
.PHONY: fuzz test-fuzz
## The targets are picked from the whole workspace's test build (the one `test-rust` makes): building
## the fuzz package alone would unify other features and compile every dependency a second time.
TEST_FUZZ_SECONDS ?= 20
FUZZ_SECONDS ?= 300
FUZZ_TARGETS := --workspace --locked --test-threads 3 -E 'package(stillpoint-fuzz) and test(/^fuzz_/)'
test-fuzz:
	FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) cargo nextest run $(FUZZ_TARGETS)
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) cargo nextest run $(FUZZ_TARGETS) --no-fail-fast --success-output final

## The deploy tests' S3 server: moto in a Python venv (.venv-s3), created when missing.
S3_VENV := .venv-s3
s3-server: $(S3_VENV)/bin/moto_server
$(S3_VENV)/bin/moto_server:
	@python3 -c 'import ensurepip' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-venv; }
	python3 -m venv $(S3_VENV)
	$(S3_VENV)/bin/pip install -q 'moto[server]==5.2.5'

## The release artifacts of this machine's target in target/artifacts (scripts/release.sh): the
## archive with the executable (web bundle inside), its debug information, the npm packages and
## SHA256SUMS. PROFILE=release reuses `make build`'s executable instead of the `dist` profile's.
release: web nasm
	PROFILE=$${PROFILE:-dist} bash scripts/release.sh

## The Linux x64 artifacts end to end, from the test build's executable: the archive alone, then
## the npm packages installed and served with no Rust on PATH.
test-release: test-build
	BIN=$(TEST_BIN) OUT=target/artifacts bash scripts/release.sh
	bash scripts/test-release.sh target/artifacts

## Browser tests need Debian's Chromium (installed here when missing; never a downloaded browser).
chromium:
	@command -v $(CHROMIUM) >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }

e2e: test-build chromium s3-server
	cd web && STILLPOINT_MOTO_SERVER=$(CURDIR)/$(S3_VENV)/bin/moto_server STILLPOINT_BIN=$(CURDIR)/$(TEST_BIN) CHROMIUM=$(CHROMIUM) npm run e2e

## Edit-to-screen latency of `stillpoint dev` in Chromium over EDITS edits (default 20): N=articles
## edits a generated corpus (bench/corpora/nN-s1, or with IMAGES=K covers from K photographs
## nN-iK-s1; generated when missing), else SITE=dir (default the demo); EDIT=body or title;
## UNCOVERED=1 alternates between an article with a cover and one without, in one session. The
## figures go to bench/results/ (JSON and a Markdown table).
bench-dev: build chromium
	@site=$${SITE:-$(DEMO)}; \
	if [ -n "$(N)" ]; then \
		site=$$(bash bench/corpus.sh $(N) $${IMAGES:-0}) || exit 1; \
	fi; \
	CHROMIUM=$(CHROMIUM) node bench/dev-latency.mjs $$site --edit $${EDIT:-body} --edits $${EDITS:-20} \
		$(if $(filter 1,$(UNCOVERED)),--uncovered) --bin $(CURDIR)/$(BIN) --results bench/results

## Build a generated corpus with Hugo and Stillpoint side by side (N articles, default 10000;
## BUILDERS=stillpoint for Stillpoint alone). The figures go to bench/results/.
bench: build
	STILLPOINT_BUILD='$(CURDIR)/$(BIN) build {site} --out {out}' BUILDERS="$(or $(BUILDERS),hugo stillpoint)" \
		bash bench/compare.sh $${N:-10000}

## What each kind of edit costs an incremental build at N generated articles, beside Hugo's full
## rebuild; each step checked with --verify up to 20,000 articles (VERIFY=0|1). Figures in bench/results/.
bench-incremental: build
	STILLPOINT=$(CURDIR)/$(BIN) bash bench/incremental.sh $${N:-10000}

## stillpoint serve against nginx on the same built site (wrk; nginx-light and wrk installed when missing).
bench-serve: build
	STILLPOINT_BIN=$(CURDIR)/$(BIN) bash bench/serve.sh

## Deploys at N generated articles against a local S3 server: first, no-change, one-article edit.
bench-deploy: build s3-server
	STILLPOINT=$(CURDIR)/$(BIN) STILLPOINT_BUILD=$(CURDIR)/$(BIN) bash bench/deploy.sh $${N:-10000}

## The image pipeline against sharp (one thread each): throughput, time per step, bytes, SSIMULACRA2,
## and the AVIF speed curve (sharp, nasm and mate-backgrounds installed when missing).
.PHONY: bench-images
bench-images:
	bash bench/images.sh

clean:
	rm -rf target web/dist web/node_modules $(DEMO_OUT) $(DEMO)/.dist.gens $(DEMO)/.stillpoint .venv-s3

## The W3C Nu HTML checker (web/e2e/html-valid.e2e.ts, npm vnu-jar) needs Java: installed when missing.
.PHONY: java
java:
	@command -v java >/dev/null || { apt-get update -qq && apt-get install -y -qq default-jre-headless; }
e2e: java

## Lighthouse benchmark (not a test): 5 runs per page, mobile and desktop, medians, on both example
## sites (SITE=examples/second-site for one). Lighthouse 12 (the last for Node 20) is installed
## under target/lighthouse when missing.
.PHONY: lighthouse
LIGHTHOUSE := target/lighthouse/node_modules/.bin/lighthouse
$(LIGHTHOUSE):
	npm install --prefix target/lighthouse --no-audit --no-fund --no-save lighthouse@12.8.2
lighthouse: build chromium $(LIGHTHOUSE)
	CHROME_PATH=$(CHROMIUM) STILLPOINT_BIN=$(CURDIR)/$(BIN) node web/scripts/lighthouse.mjs

## The two screenshots of docs/theme.md (the demo's and the second site's home page, 1280×800).
.PHONY: theme-screenshots
theme-screenshots: build chromium
	CHROMIUM=$(CHROMIUM) STILLPOINT_BIN=$(CURDIR)/$(BIN) node web/scripts/theme-screenshots.mjs

## The search index alone at N generated titles (default 1000000): files, bytes, bytes per query.
.PHONY: bench-search
bench-search: deps
	bash bench/search-index.sh $${N:-1000000}
