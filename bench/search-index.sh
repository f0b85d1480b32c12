#!/usr/bin/env bash
# The title search index alone at N generated titles (default 1,000,000): its files and bytes, and
# what the benchmark queries fetch typed key by key (median / p90 / worst), raw and gzip.
#
#   bash bench/search-index.sh [N]        (make bench-search N=…)
#
# Titles come from bench/gen_corpus.py --titles (the corpus generator's titles, seed 1); the index
# is built by crates/site/examples/search_index.rs with the layout every site build uses, and the
# queries run through the real search client in Node (bench/search-queries.mjs). Work files stay
# in target/bench-search/.
set -euo pipefail
N=${1:-1000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/target/bench-search
mkdir -p "$WORK"
TITLES=$WORK/titles-$N.tsv
if [[ ! -s $TITLES ]]; then
  echo "generating $N titles → $TITLES"
  python3 "$ROOT/bench/gen_corpus.py" --articles "$N" --titles "$TITLES.tmp"
  mv "$TITLES.tmp" "$TITLES"
fi
cargo build --release --locked -q -p stillpoint-site --example search_index
"$ROOT/target/release/examples/search_index" "$TITLES" "$WORK/index-$N"
node "$ROOT/bench/search-queries.mjs" "$WORK/index-$N" --json "$WORK/queries-$N.json"
