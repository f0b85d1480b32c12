#!/usr/bin/env bash
# compare.sh N — build one generated corpus of N articles with every available generator and print a table.
#
#   BUILDERS="hugo stillpoint"  which to try (default: both; each is skipped if unavailable)
#   STILLPOINT_BUILD='target/release/stillpoint build {site} --out {out}'   the project's builder
#   STILLPOINT_CACHE=DIR  the project's cache dir, deleted before its cold build (default CORPUS/.stillpoint)
#   ROUNDS=1           cold builds per builder, alternating which goes first; the table adds medians
#   WARM=1             after the cold builds, change one article and rebuild each builder once (default 1)
#   TIMEOUT_S=1800     cap for any single build (default 30 minutes)
#   SEED=1             corpus seed
#   IMAGES=0           K > 0: articles get covers drawn from K distinct photographs (gen_corpus.py --images)
# Corpora are cached in bench/corpora/, outputs go to bench/out/, raw results and logs to bench/results/.
set -euo pipefail
N=${1:?usage: compare.sh N}
BENCH=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-1}; IMAGES=${IMAGES:-0}; WARM=${WARM:-1}; TIMEOUT_S=${TIMEOUT_S:-1800}; ROUNDS=${ROUNDS:-1}
BUILDERS=${BUILDERS:-hugo stillpoint}
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
CORPUS=$(bash "$BENCH/corpus.sh" "$N" "$IMAGES" "$SEED") || exit 1
TAG=$(basename "$CORPUS"); TAG=${TAG%-s"$SEED"}   # nN or nN-iK: names the outputs and results
OUTS="$BENCH/out/$TAG"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RES="$BENCH/results/$TAG-$STAMP"
mkdir -p "$OUTS" "$RES"
SLUG=$(ls "$CORPUS/articles" | LC_ALL=C sort | awk "NR==1"); SLUG=${SLUG%.md}

available() {
  case $1 in
    hugo) command -v hugo >/dev/null || { apt-get update -qq && apt-get install -y -qq hugo >/dev/null 2>&1; }; command -v hugo >/dev/null ;;
    stillpoint) [ -n "${STILLPOINT_BUILD:-}" ] ;;
  esac
}
cmd_for() {  # builder out_dir -> command line
  case $1 in
    hugo) echo "$BENCH/hugo/build.sh --prepared $HUGO_WORK $2" ;;
    stillpoint) local c=${STILLPOINT_BUILD//\{site\}/$CORPUS}; echo "${c//\{out\}/$2}" ;;
  esac
}
clean_caches() {
  case $1 in
    hugo) rm -rf "$HUGO_WORK/cache" ;;
    stillpoint) rm -rf "${STILLPOINT_CACHE:-$CORPUS/.stillpoint}" ;;
  esac
}
measure() {  # builder mode
  local b=$1 mode=$2 out="$OUTS/$1" tag="$RES/$1-$2-r${ROUND:-1}"
  sync; sleep 2   # let the previous run's writes and deletions settle before timing
  echo ">> $b $mode: $(cmd_for "$b" "$out")" >&2
  # shellcheck disable=SC2046
  python3 "$BENCH/bench_lib.py" run "$TIMEOUT_S" "$tag.log" "$tag.run.json" -- bash -c "$(cmd_for "$b" "$out")"
  python3 - "$tag.run.json" <<'PY' >&2
import json,sys; r=json.load(open(sys.argv[1])); print("   ", r)
PY
  local ok=0 status
  status=$(python3 -c "import json,sys;r=json.load(open(sys.argv[1]));print('timeout' if r['timed_out'] else ('ok' if r['rc']==0 else 'rc=%d'%r['rc']))" "$tag.run.json")
  if [ "$status" = ok ]; then ok=1; python3 "$BENCH/bench_lib.py" stats "$out" "$SLUG" "$tag.stats.json"; else echo '{}' > "$tag.stats.json"; fi
  python3 - "$tag.run.json" "$tag.stats.json" "$N" "$b" "$mode" "$ok" "$status" "${ROUND:-1}" >> "$RES/results.jsonl" <<'PY'
import json,sys
r=json.load(open(sys.argv[1])); r.update(json.load(open(sys.argv[2])))
r.update(n=int(sys.argv[3]), builder=sys.argv[4], mode=sys.argv[5], ok=sys.argv[6]=="1", status=sys.argv[7],
         round=int(sys.argv[8]))
print(json.dumps(r))
PY
}

ACTIVE=()
for b in $BUILDERS; do
  if available "$b"; then ACTIVE+=("$b"); else echo ">> $b: not available, skipped" >&2; fi
done
# Hugo is timed alone: the corpus is converted into a Hugo project before any clock starts (the
# project mounts the corpus's articles, so the warm edit below reaches Hugo with no new conversion).
HUGO_WORK="$OUTS/.hugo-project"
if [[ " ${ACTIVE[*]} " == *" hugo "* ]]; then
  rm -rf "$HUGO_WORK"
  /usr/bin/time -f ">> hugo: corpus converted in %e s (not timed)" bash "$BENCH/hugo/build.sh" --prepare "$CORPUS" "$HUGO_WORK"
fi
# A cold build writes into a path with nothing there. The last run's output is moved aside, not
# deleted, and removed once every build is timed: deleting tens of thousands of files just before
# a build makes the file system slower at creating new ones for minutes (ext4 steps over recently
# freed inodes), a cost of the benchmark, not of the builder.
TRASH="$OUTS/.trash-$STAMP"
mkdir -p "$TRASH"
set_aside() { for p in "$@"; do [ -e "$p" ] || [ -L "$p" ] && mv "$p" "$TRASH/$(basename "$p")-$RANDOM"; done; true; }
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
  ORDER=("${ACTIVE[@]}")
  if ((ROUND % 2 == 0)); then ORDER=(); for ((i = ${#ACTIVE[@]} - 1; i >= 0; i--)); do ORDER+=("${ACTIVE[$i]}"); done; fi
  for b in "${ORDER[@]}"; do
    clean_caches "$b"; set_aside "$OUTS/$b" "$OUTS/.$b.gens"
    ROUND=$ROUND measure "$b" cold
  done
done
ROUND=1
if [ "$WARM" = 1 ]; then
  ART="$CORPUS/articles/$SLUG.md"; cp "$ART" "$RES/orig-article.md"
  printf '\nEdited for the warm rebuild at %s.\n' "$STAMP" >> "$ART"
  for b in "${ACTIVE[@]}"; do [ -d "$OUTS/$b" ] && measure "$b" warm; done
  cp "$RES/orig-article.md" "$ART"
fi
echo "corpus: $CORPUS ($(du -sh "$CORPUS" | cut -f1)); article page measured: /articles/$SLUG/; raw: $RES" >&2
python3 "$BENCH/bench_lib.py" table "$RES/results.jsonl" | tee "$RES/table.md"
rm -rf "$TRASH" "$HUGO_WORK"
