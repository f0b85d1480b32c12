#!/usr/bin/env bash
# The generated corpus of N articles (with covers drawn from K distinct photographs when K > 0,
# seed SEED): prints its path, bench/corpora/nN[-iK]-sSEED, and generates it there first when it
# is missing or was left half-written. The one naming rule for every bench that builds a corpus.
#
#   bench/corpus.sh N [K] [SEED]      K defaults to 0, SEED to 1
set -euo pipefail
N=${1:?usage: corpus.sh N [K] [SEED]}; K=${2:-0}; SEED=${3:-1}
BENCH=$(cd "$(dirname "$0")" && pwd)
TAG=n$N; if [ "$K" -gt 0 ]; then TAG=n$N-i$K; fi
CORPUS="$BENCH/corpora/$TAG-s$SEED"
if [ ! -f "$CORPUS/.complete" ]; then
  mkdir -p "$BENCH/corpora"
  rm -rf "$CORPUS"
  timed=(); [ -x /usr/bin/time ] && timed=(/usr/bin/time -f "generated in %e s, max RSS %M KiB")
  "${timed[@]}" python3 "$BENCH/gen_corpus.py" --articles "$N" --out "$CORPUS" --seed "$SEED" --images "$K" >&2
  touch "$CORPUS/.complete"
fi
echo "$CORPUS"
