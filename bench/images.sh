#!/usr/bin/env bash
# Stillpoint's image pipeline against sharp, on one thread each, in one run.
#
#   bash bench/images.sh            (make bench-images)
#
# Sources: the 12 JPEG photographs of mate-backgrounds' nature/ folder (SOURCES=DIR for
# another folder of JPEGs). Installs what it needs when missing: nasm and mate-backgrounds
# (apt-get), sharp 0.35.5 (npm ci in bench/images). Then:
#  1. sharp (bench/images/sharp.mjs, concurrency 1, UV_THREADPOOL_SIZE=1): rotate, resize to
#     each width, AVIF quality 50 effort 4 and WebP quality 75;
#  2. Stillpoint (crates/media/examples/images_bench.rs, release build, one thread): the same
#     renditions exactly as the pipeline makes them (AVIF quality 50 speed 8, WebP quality 75);
#  3. the AVIF speed curve: speeds CURVE_SPEEDS (default 4…10) at quality 50, AVIF only;
#  4. AVIF qualities MATCH_QUALITIES (default "70 75") at speed 8, to match sharp's score;
#  5. SSIMULACRA2 of every rendition against the lossless reference (images_metric.rs);
# and prints a Markdown summary. JSON, renditions and summary.md are left in bench/out/images/
# (not committed). About 20 minutes on two busy shared cores: sharp 2–3, the curve 3, and the
# metric (624 SSIMULACRA2 scores) most of the rest.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SOURCES=${SOURCES:-/usr/share/backgrounds/mate/nature}
OUT=$ROOT/bench/out/images
CURVE_SPEEDS=${CURVE_SPEEDS:-4 5 6 7 8 9 10}
MATCH_QUALITIES=${MATCH_QUALITIES:-70 75}
BIN=$ROOT/target/release/examples

log() { echo "images.sh: $*" >&2; }

need() {
  local missing=()
  command -v nasm >/dev/null || missing+=(nasm)
  [[ -d $SOURCES || $SOURCES != /usr/share/backgrounds/mate/nature ]] || missing+=(mate-backgrounds)
  if ((${#missing[@]})); then
    local sudo=; [[ $(id -u) == 0 ]] || sudo=sudo
    log "installing ${missing[*]}"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  [[ -d $SOURCES ]] || { log "no $SOURCES"; exit 1; }
  if [[ ! -f $ROOT/bench/images/node_modules/.package-lock.json ||
    $ROOT/bench/images/package-lock.json -nt $ROOT/bench/images/node_modules/.package-lock.json ]]; then
    log "npm ci (sharp)"
    (cd "$ROOT/bench/images" && npm ci --no-audit --no-fund >/dev/null)
  fi
}
need

log "building the bench (cargo build --release)"
(cd "$ROOT" && cargo build --release --locked -p stillpoint-media \
  --example images_bench --example images_metric >&2)

rm -rf "$OUT"
mkdir -p "$OUT"

log "sharp: $(ls "$SOURCES" | grep -ciE '\.jpe?g$') images"
UV_THREADPOOL_SIZE=1 node "$ROOT/bench/images/sharp.mjs" "$SOURCES" "$OUT/sharp" >"$OUT/sharp.json"
log "Stillpoint"
"$BIN/images_bench" "$SOURCES" "$OUT/ours" >"$OUT/ours.json"

dirs=("$OUT/sharp" "$OUT/ours")
for speed in $CURVE_SPEEDS; do
  log "AVIF speed $speed"
  "$BIN/images_bench" "$SOURCES" "$OUT/curve-s$speed" --formats avif --avif-speed "$speed" \
    >"$OUT/curve-s$speed.json"
  dirs+=("$OUT/curve-s$speed")
done
for quality in $MATCH_QUALITIES; do
  log "AVIF quality $quality"
  "$BIN/images_bench" "$SOURCES" "$OUT/match-q$quality" --formats avif --avif-quality "$quality" \
    >"$OUT/match-q$quality.json"
  dirs+=("$OUT/match-q$quality")
done

log "decoding the renditions to PNG"
node "$ROOT/bench/images/decode.mjs" "${dirs[@]}"
log "SSIMULACRA2"
"$BIN/images_metric" "$SOURCES" "${dirs[@]}" >"$OUT/metric.json"

node "$ROOT/bench/images/summary.mjs" "$OUT" | tee "$OUT/summary.md"
