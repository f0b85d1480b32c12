#!/usr/bin/env bash
# images-build.sh N K — what cover photographs cost a build of N generated articles whose covers
# are drawn from K distinct photographs (gen_corpus.py --images K), beside the same corpus
# without images:
#
#   no images   clean builds of the corpus without covers (ROUNDS of them)
#   cold        the corpus with covers, image cache empty: every photograph is processed
#   warm        the corpus with covers, image cache full, no other build state (ROUNDS of them):
#               what a clean build costs once the photographs are known
#
# The summary gives each median and warm / no images (the goal: at most 1.10).
#
#   STILLPOINT=target/release/stillpoint   the executable
#   ROUNDS=3                               no-image and warm builds (medians)
#   COLD=1                                 0 skips the cold build (an image cache must exist)
# Each step runs bench/compare.sh (corpora in bench/corpora/, raw results in bench/results/).
set -euo pipefail
N=${1:?usage: images-build.sh N K}
K=${2:?usage: images-build.sh N K}
BENCH=$(cd "$(dirname "$0")" && pwd)
BIN=${STILLPOINT:-$BENCH/../target/release/stillpoint}
ROUNDS=${ROUNDS:-3}; COLD=${COLD:-1}
[ -x "$BIN" ] || { echo "no executable at $BIN (make build)" >&2; exit 2; }
CORPUS=$(bash "$BENCH/corpus.sh" "$N" "$K" "${SEED:-1}")
STATE="$CORPUS/.stillpoint"
export STILLPOINT_BUILD="$BIN build {site} --out {out}" BUILDERS=stillpoint WARM=0
unset STILLPOINT_IMAGE_CACHE

step() {  # label, then compare.sh's environment and arguments; prints the results file
  local label=$1; shift
  echo ">> $label" >&2
  env "$@" bash "$BENCH/compare.sh" "$N" >&2
  ls -td "$BENCH"/results/n"$N"*/ | head -1 | sed 's,/$,/results.jsonl,'
}

PLAIN=$(step "no images: $ROUNDS clean builds" IMAGES=0 ROUNDS="$ROUNDS")
COLD_RES=
if [ "$COLD" = 1 ]; then
  # compare.sh deletes the whole state directory before a cold build: the image cache too.
  COLD_RES=$(step "cold: $K photographs, empty image cache" IMAGES="$K" ROUNDS=1 STILLPOINT_CACHE="$STATE")
fi
# Only the build cache goes before each of these: the image cache stays full.
WARM_RES=$(step "warm: image cache full" IMAGES="$K" ROUNDS="$ROUNDS" STILLPOINT_CACHE="$STATE/build-cache.bin")

python3 - "$N" "$K" "$PLAIN" "$COLD_RES" "$WARM_RES" "$STATE/images" <<'PY'
import json, os, statistics, sys
n, k, plain, cold, warm, images = sys.argv[1:]
def runs(path):
    if not path:
        return []
    return [json.loads(line) for line in open(path) if line.strip()]
def med(rs, key="wall_s"):
    return statistics.median(r.get(key, 0) for r in rs) if rs else None
p, c, w = runs(plain), runs(cold), runs(warm)
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(images) for f in fs) if os.path.isdir(images) else 0
print(f"\n## {int(n):,} articles, covers from {int(k):,} distinct photographs\n")
print("| build | wall s (median) | user s | peak RSS MiB | runs |")
print("|---|---:|---:|---:|---:|")
for label, rs in (("no images", p), ("cold (empty image cache)", c), ("warm (image cache full)", w)):
    if rs:
        print(f"| {label} | {med(rs):.2f} | {med(rs, 'user_s') or 0:.1f} | {med(rs, 'tree_rss_mib'):.0f} | {len(rs)} |")
if p and w:
    print(f"\nwarm / no images: {med(w) / med(p):.3f} (goal ≤ 1.10)")
if p and c:
    print(f"cold: {(med(c) - med(p)) / int(k) * 1000:.0f} ms of wall time per photograph beyond the no-image build")
print(f"image cache: {size / 2**20:.0f} MiB")
PY
