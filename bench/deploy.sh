#!/usr/bin/env bash
# Deploy figures against a local S3 server (moto): first deploy, no-change deploy, and a deploy
# after a one-article edit, for a generated corpus of N articles (default 10000).
#
#   make build s3-server && bash bench/deploy.sh [N]
#
# Env: STILLPOINT (binary, default target/release/stillpoint), STILLPOINT_BUILD (the binary
# that builds the corpus, default STILLPOINT), MOTO (moto_server, default
# .venv-s3/bin/moto_server), GEN (corpus generator, default bench/gen_corpus.py), WORK (scratch
# directory, default bench/out/deploy-N; corpora and builds are never committed).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
BIN=${STILLPOINT:-$PWD/target/release/stillpoint}
BUILD_BIN=${STILLPOINT_BUILD:-$BIN}  # the binary that builds the corpus
MOTO=${MOTO:-$PWD/.venv-s3/bin/moto_server}
GEN=${GEN:-bench/gen_corpus.py}
WORK=${WORK:-$PWD/bench/out/deploy-$N}
BUCKET=bench-site
[ -x "$BIN" ] || { echo "no $BIN: run make build" >&2; exit 1; }
[ -x "$MOTO" ] || { echo "no $MOTO: run make s3-server" >&2; exit 1; }

mkdir -p "$WORK"
SITE=$WORK/site DIST=$WORK/dist
if [ ! -f "$SITE/stillpoint.toml" ]; then
  python3 "$GEN" --articles "$N" --out "$SITE"
fi
"$BUILD_BIN" build "$SITE" --out "$DIST" 2>&1 | tail -1

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$MOTO" -H 127.0.0.1 -p "$PORT" >"$WORK/moto.log" 2>&1 &
MOTO_PID=$!
trap 'kill $MOTO_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do curl -s -o /dev/null "http://127.0.0.1:$PORT" && break; sleep 0.2; done
curl -sf -X PUT "http://127.0.0.1:$PORT/$BUCKET" -o /dev/null

export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:$PORT

deploy() { "$BIN" deploy "$DIST" --to "s3://$BUCKET" "$@" | tail -1; }
files=$(find -L "$DIST" -type f -not -path '*/.stillpoint/*' | wc -l)
bytes=$(find -L "$DIST" -type f -not -path '*/.stillpoint/*' -printf '%s\n' | awk '{s+=$1} END {print s}')
echo "corpus: $N articles, $files files, $bytes bytes to publish"

echo "first deploy:      $(deploy)"
echo "no-change deploy:  $(deploy)"

article=$(find "$SITE/articles" -name '*.md' | sort | awk 'NR == 1')
printf '\nOne more sentence, added for the benchmark.\n' >>"$article"
"$BUILD_BIN" build "$SITE" --out "$DIST" 2>&1 | tail -1
echo "one-article edit:  $(deploy)"
echo "listing (--verify): $(deploy --verify)"

manifest=$("${MOTO%/*}/python" -c 'import boto3, sys
s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1")
print(s3.head_object(Bucket=sys.argv[2], Key=".stillpoint/deploy-manifest.json")["ContentLength"])' \
  "$AWS_ENDPOINT_URL" "$BUCKET")
echo "manifest: $manifest bytes"
echo "Hugo-style no-change check (list every object, compare MD5): $(( (files + 999) / 1000 )) LIST requests for $files objects"
