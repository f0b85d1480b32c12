#!/usr/bin/env bash
# packages/test/install.sh DIR: install Stillpoint from the npm tarballs in DIR (made by
# packages/pack.mjs) the way a user would, on a machine without Rust, then create, check, build
# and serve a site with it. Stops by itself within about two minutes whatever happens.
#
# How the tarballs are installed: registry.mjs, beside this script, serves DIR as an npm registry
# on 127.0.0.1, and the test runs `npm install stillpoint create-stillpoint` against it. npm then
# picks the platform package through stillpoint's optionalDependencies and their os/cpu/libc
# fields, exactly as from the public registry, so a wrong version stamp, name or platform field
# fails here. The platform packages that are not in DIR answer 404, which npm 11 skips for an
# optional dependency, as it does on the public registry. (Installing the three .tgz files
# directly works too, but makes the platform package a direct dependency and still asks the
# public registry for the others; an unreachable --registry makes npm retry each of them for
# minutes.) Nothing reaches the network: npm's registry, cache and HOME are all under the temp dir.
set -euo pipefail

pkgs=${1:?usage: install.sh DIR_WITH_TARBALLS}
pkgs=$(cd "$pkgs" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
deadline=$((SECONDS + 115))

fail() { echo "install.sh: FAIL: $*" >&2; exit 1; }
step() { echo "--- $*"; }
# Runs a command within what is left of the time budget.
limited() {
  local left=$((deadline - SECONDS)) rc=0
  ((left > 0)) || fail "out of time before: $*"
  timeout -k 3 "$left" "$@" || rc=$?
  ((rc != 124 && rc != 137)) || fail "timed out: $*"
  return "$rc"
}

for f in stillpoint create-stillpoint; do
  ls "$pkgs"/$f-[0-9]*.tgz >/dev/null 2>&1 || fail "no $f-VERSION.tgz in $pkgs (run packages/pack.mjs)"
done

# A clean environment: only node and npm on PATH, no Rust, no Stillpoint or npm settings.
node=$(command -v node) || fail "node is not on PATH"
npm=$(command -v npm) || fail "npm is not on PATH"
PATH="$(dirname "$node"):$(dirname "$npm"):/usr/bin:/bin"
export PATH
for tool in cargo rustc; do
  if command -v "$tool" >/dev/null; then fail "$tool is on the reduced PATH ($(command -v "$tool")): cannot prove the install needs no Rust"; fi
done
while read -r var; do
  case $var in STILLPOINT_* | npm_* | NPM_* | NODE_OPTIONS | NODE_PATH) unset "$var" ;; esac
done < <(compgen -e)

work=$(mktemp -d "${TMPDIR:-/tmp}/stillpoint-install.XXXXXX")
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  if ((rc == 0)); then rm -rf "$work"; else echo "install.sh: logs kept in $work" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

export HOME=$work/home npm_config_cache=$work/npm-cache npm_config_update_notifier=false
mkdir -p "$HOME" "$work/project"
cd "$work/project"

# Each background process leads its own process group (setsid), so cleanup ends its children too.
setsid node "$here/registry.mjs" "$pkgs" >"$work/registry.url" 2>"$work/registry.log" &
pids+=($!)
for _ in $(seq 100); do [[ -s $work/registry.url ]] && break; sleep 0.1; done
registry=$(head -n1 "$work/registry.url")
[[ $registry == http://127.0.0.1:* ]] || fail "the local registry did not start: $(cat "$work/registry.log")"
export npm_config_registry=$registry/

step "node $(node --version), npm $(npm --version); cargo and rustc not found; in $work/project"
limited npm init -y >/dev/null || fail "npm init -y"

step "npm install stillpoint create-stillpoint"
start_ns=$(date +%s%N)
limited npm install --no-audit --no-fund stillpoint create-stillpoint || fail "npm install"
platform_pkg=$(cd node_modules && ls -d stillpoint-*-* 2>/dev/null) || fail "npm installed no platform package"
echo "platform package: $platform_pkg"
skipped=$(sed -n 's|^GET /\(stillpoint-[^ ]*\) 404$|\1|p' "$work/registry.log" | sort -u | tr '\n' ' ')
echo "optional, not in the registry, skipped: ${skipped:-none}"

step "npx stillpoint --version"
limited npx stillpoint --version || fail "npx stillpoint --version"

step "npx stillpoint new site"
limited npx stillpoint new site || fail "npx stillpoint new site"
title=$(sed -n 's/^title = "\(.*\)"$/\1/p' site/stillpoint.toml | head -n1)
[[ -n $title ]] || fail "no title in site/stillpoint.toml"

step "npx stillpoint check site"
limited npx stillpoint check site || fail "npx stillpoint check site"

step "npx stillpoint build site --out dist"
limited npx stillpoint build site --out dist || fail "npx stillpoint build site --out dist"

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
step "npx stillpoint serve dist --host 127.0.0.1 --port $port"
setsid npx stillpoint serve dist --host 127.0.0.1 --port "$port" >"$work/serve.log" 2>&1 &
server=$!
pids+=("$server")
url=http://127.0.0.1:$port
code=000
while ((SECONDS < deadline)); do
  code=$(curl -s -o "$work/index.html" -w '%{http_code}' --max-time 5 "$url/") || true
  [[ $code == 200 ]] && break
  kill -0 "$server" 2>/dev/null || fail "the server exited: $(cat "$work/serve.log")"
  sleep 0.2
done
[[ $code == 200 ]] || fail "GET $url/ answered $code: $(cat "$work/serve.log")"
first_page_ms=$((($(date +%s%N) - start_ns) / 1000000))
grep -o '<title>[^<]*</title>' "$work/index.html" | grep -qF "$title" ||
  fail "GET / has no <title> with the site's title \"$title\""
asset=$(grep -oE '<link[^>]*rel="stylesheet"[^>]*>' "$work/index.html" | grep -oE 'href="/[^"]+"' | head -n1 | cut -d'"' -f2)
[[ -n $asset ]] || fail "GET / links no stylesheet"
echo "GET / 200: <title> has \"$title\", stylesheet $asset"
code=$(curl -s -o "$work/asset" -w '%{http_code}' --max-time 5 "$url$asset") || true
[[ $code == 200 && -s $work/asset ]] || fail "GET $asset answered $code"
echo "GET $asset 200, $(wc -c <"$work/asset") bytes"
kill -TERM -- "-$server"
for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server" 2>/dev/null && fail "the server did not stop within 5 s of SIGTERM"

step "npx create-stillpoint site2"
limited npx create-stillpoint site2 || fail "npx create-stillpoint site2"
step "npx stillpoint check site2"
limited npx stillpoint check site2 || fail "npx stillpoint check site2"

printf 'install.sh: PASS. npm install to the first served page: %d.%03d s\n' $((first_page_ms / 1000)) $((first_page_ms % 1000))
