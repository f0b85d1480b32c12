#!/usr/bin/env bash
# bench/incremental.sh [N] — what each kind of edit costs an incremental `stillpoint build` at N
# generated articles (default 10000), with Hugo's full rebuild of the same corpus, in the same
# run, as the reference (Hugo has no incremental build on disk).
#
#   STILLPOINT=target/release/stillpoint   the binary (built by `make build`)
#   SEED=1                                 corpus seed
#   HUGO=0                                 skip the Hugo reference
#   VERIFY=1                               after each timed step, `build --verify` (untimed): the
#                                          output must equal a clean build's (default 1 up to 20,000
#                                          articles; a clean build per step costs minutes beyond)
#   SERVER=1                               builds through the build server (docs/incremental.md):
#                                          the first build starts it, the others ask it; the check
#                                          after each step is then a clean build into another
#                                          folder compared with the output (`diff -r`)
# Prints a Markdown table: edit kind → pages rendered → files changed/removed → wall s → × Hugo,
# and keeps it with the raw figures in bench/results/incremental-nN-STAMP/ (table.md, results.json).
set -euo pipefail
N=${1:-10000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH="$ROOT/bench"
BIN=${STILLPOINT:-$ROOT/target/release/stillpoint}
SEED=${SEED:-1}
[ -x "$BIN" ] || { echo "no binary at $BIN: run make build" >&2; exit 1; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
WORK="$BENCH/out/incremental-n$N"
SITE="$WORK/site"
OUT="$WORK/dist"
RESULTS="$WORK/results.tsv"
VERIFY=${VERIFY:-$((N <= 20000 ? 1 : 0))}
SERVER=${SERVER:-0}
KEEP="$BENCH/results/incremental-n$N$([ "$SERVER" = 1 ] && echo -server)-$(date -u +%Y%m%dT%H%M%SZ)"
rm -rf "$WORK"; mkdir -p "$WORK" "$KEEP"
if [ "$SERVER" = 1 ]; then
  # The server's socket in a folder of this run's own; it stops when the run ends.
  export STILLPOINT_BUILD_SERVER=1 STILLPOINT_BUILD_SERVER_IDLE=600 XDG_RUNTIME_DIR="$WORK/run"
  stop_server() { rm -rf "$WORK/run/stillpoint/servers"; }
  trap stop_server EXIT
else
  export STILLPOINT_BUILD_SERVER=0
fi
python3 "$BENCH/gen_corpus.py" --articles "$N" --out "$SITE" --seed "$SEED" >/dev/null
# A new corpus is dated back, as a site's files are: its first build can record their stamps.
find "$SITE" -type f -exec touch -d '-1 minute' {} +
: > "$RESULTS"

ARTICLES=($(ls "$SITE/articles" | LC_ALL=C sort | sed -n 1,2p))
A0="$SITE/articles/${ARTICLES[0]}"; A1="$SITE/articles/${ARTICLES[1]}"

# step KIND [build flags...]: one build, timed; records rendered/changed/removed/wall.
step() {
  local kind=$1; shift
  # Three seconds: an edit is older than the two seconds after which a file's stamp is trusted
  # (as when an owner saves, then runs the build), so each build records what it built from.
  sync; sleep 3
  local log="$WORK/$kind.log"
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$BIN" build "$SITE" --out "$OUT" "$@" 2>"$log"
  local line; line=$(grep '^Built' "$log" | tail -1)
  local rendered changed removed
  rendered=$(sed -E 's/.*rendered ([0-9]+).*/\1/' <<<"$line")
  changed=$(sed -E 's/.* ([0-9]+) files? changed.*/\1/' <<<"$line")
  removed=$(sed -E 's/.* ([0-9]+) removed.*/\1/' <<<"$line")
  read -r wall rss < "$WORK/time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$rendered" "$changed" "$removed" "$wall" "$rss" >> "$RESULTS"
  echo ">> $kind: $line ($wall s, $((rss / 1024)) MiB)" >&2
  if [ "$VERIFY" = 1 ] && [ "$SERVER" = 1 ]; then
    # Not through the output: a build of it in this process would make the server start afresh.
    rm -rf "$WORK/clean" "$WORK/.clean.gens"
    "$BIN" build "$SITE" --out "$WORK/clean" --no-cache "$@" >"$WORK/verify.log" 2>&1
    diff -r "$OUT/" "$WORK/clean/" >>"$WORK/verify.log" 2>&1 ||
      { echo "after \"$kind\" the output differs from a clean build:" >&2; tail -20 "$WORK/verify.log" >&2; exit 1; }
  elif [ "$VERIFY" = 1 ]; then
    "$BIN" build "$SITE" --out "$OUT" --verify "$@" >"$WORK/verify.log" 2>&1 ||
      { echo "after \"$kind\" the output differs from a clean build:" >&2; tail -20 "$WORK/verify.log" >&2; exit 1; }
  fi
}
replace() {  # FILE FROM TO (first occurrence; python, so any text is literal)
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path, encoding="utf-8").read()
assert old in text, f"{path}: {old!r} not found"
open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))
PY
}
title_of() { sed -n 's/^title: "\(.*\)"$/\1/p' "$1" | head -1; }

step "first build (empty cache)"
step "no change"
printf '\nOne more sentence for the benchmark.\n' >> "$A0";           step "article body"
printf '\nAnd one more.\n' >> "$A0";                                   step "article body again"
replace "$A0" "title: \"$(title_of "$A0")\"" "title: \"$(title_of "$A0") Revisited\""; step "article title"
sed -e "s/^slug: .*/slug: bench-added-article/" "$A1" > "$SITE/articles/bench-added-article.md"; step "add article"
replace "$SITE/articles/bench-added-article.md" "slug: bench-added-article" "slug: bench-renamed-article"
mv "$SITE/articles/bench-added-article.md" "$SITE/articles/bench-renamed-article.md"
step "rename article (slug)"
rm "$SITE/articles/bench-renamed-article.md";                      step "delete article"
replace "$SITE/data/authors.toml" 'description = "' 'description = "Edited. ';  step "author"
replace "$SITE/data/topics.toml" 'description = "' 'description = "Edited. ';   step "topics.toml"
replace "$SITE/stillpoint.toml" 'description = "' 'description = "Edited. ';    step "stillpoint.toml"
printf 'bench\n' > "$SITE/static/bench.txt";                       step "static file"
WEB="$WORK/web"; cp -R "$ROOT/web/dist" "$WEB" 2>/dev/null || cp -R "$(dirname "$BIN")/web" "$WEB"
CSS=$(ls "$WEB"/client/assets/*.css | sed -n 1p); printf '\n/* bench */\n' >> "$CSS"
step "web bundle" --web "$WEB"

HUGO_WALL=""
if [ "${HUGO:-1}" != 0 ]; then
  command -v hugo >/dev/null || { apt-get update -qq && apt-get install -y -qq hugo >/dev/null; }
  # Hugo alone: the corpus is converted into a Hugo project first, outside the clock.
  bash "$BENCH/hugo/build.sh" --prepare "$SITE" "$WORK/hugo-project" >"$WORK/hugo.log" 2>&1
  sync; sleep 1
  /usr/bin/time -f "%e %M" -o "$WORK/time" bash "$BENCH/hugo/build.sh" --prepared "$WORK/hugo-project" "$WORK/hugo" >>"$WORK/hugo.log" 2>&1
  read -r HUGO_WALL _ < "$WORK/time"
  echo ">> hugo full build: $HUGO_WALL s" >&2
fi

python3 - "$RESULTS" "$N" "$HUGO_WALL" "$KEEP/results.json" "$VERIFY" "$SERVER" <<'PY' | tee "$KEEP/table.md"
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
n, hugo = sys.argv[2], sys.argv[3]
json.dump({"articles": int(n), "hugo_full_build_s": float(hugo) if hugo else None,
           "verified": sys.argv[5] == "1", "build_server": sys.argv[6] == "1",
           "steps": [{"edit": k, "rendered": int(r), "changed": int(c), "removed": int(d),
                      "wall_s": float(w), "peak_rss_kib": int(m)} for k, r, c, d, w, m in rows]},
          open(sys.argv[4], "w"), indent=1)
print(f"\n{int(n):,} articles" + (f"; Hugo full rebuild of the same corpus: {hugo} s" if hugo else "")
      + ("; builds answered by the build server after the first" if sys.argv[6] == "1" else "")
      + ("; after every step the output equals a clean build (`--verify`)" if sys.argv[5] == "1" else ""))
print("\n| edit | pages rendered | files changed | files removed | wall s | × Hugo | peak RSS MiB |")
print("|---|---:|---:|---:|---:|---:|---:|")
for kind, rendered, changed, removed, wall, rss in rows:
    ratio = f"{float(wall) / float(hugo):.3f}" if hugo else "–"
    print(f"| {kind} | {rendered} | {changed} | {removed} | {wall} | {ratio} | {int(rss) // 1024} |")
PY
