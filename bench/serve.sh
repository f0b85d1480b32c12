#!/usr/bin/env bash
# Throughput of `stillpoint serve` against nginx serving the same built site, in one run.
#
#   bench/serve.sh [DIST]
#
# DIST defaults to the demo site built with target/release/stillpoint (built when missing).
# Installs nginx-light, wrk and openssl with apt-get when missing. For an article, the home
# page, the largest hashed JS asset and a page-data file, each without and with
# `Accept-Encoding: br, gzip`, runs wrk (-t2 -c128, DURATION seconds per half, default 4)
# against both servers in A-B-B-A order (req/s averaged, p50 and p99 of both halves shown),
# over plain HTTP and then over TLS (both with the same self-signed certificate), and prints
# errors and the ratio to nginx, plus the peak RSS of `stillpoint serve`. Everything listens
# on 127.0.0.1 and is stopped on exit.
#
# RUNS=N repeats each row's A-B-B-A round N times (default 1) and shows the round with the
# median ratio (and every round's ratio). ONLY=REGEX keeps the rows whose
# "proto target encoding" matches (e.g. ONLY='http js identity', ONLY=identity).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${STILLPOINT_BIN:-$ROOT/target/release/stillpoint}
DURATION=${DURATION:-4}
RUNS=${RUNS:-1}
ONLY=${ONLY:-}
CONNECTIONS=${CONNECTIONS:-128}
SP_PORT=${SP_PORT:-18080}
NG_PORT=${NG_PORT:-18081}
SP_TLS_PORT=${SP_TLS_PORT:-18443}
NG_TLS_PORT=${NG_TLS_PORT:-18444}
WORK=$(mktemp -d /tmp/stillpoint-bench.XXXXXX)
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [[ -f $WORK/nginx.pid ]]; then kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; fi
  if [[ -f $WORK/nginx-tls.pid ]]; then kill "$(cat "$WORK/nginx-tls.pid")" 2>/dev/null || true; fi
  sleep 0.3
  rm -rf "$WORK"
}
trap cleanup EXIT

need() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
  command -v openssl >/dev/null || missing+=(openssl)
  if ((${#missing[@]})); then
    local sudo=; [[ $(id -u) == 0 ]] || sudo=sudo
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
  fi
}
need

[[ -x $BIN ]] || (cd "$ROOT" && make build)
if [[ $# -ge 1 ]]; then
  DIST=$(cd "$1" && pwd)
else
  DIST=$WORK/dist
  "$BIN" build "$ROOT/examples/demo" --out "$DIST" >/dev/null
fi

# The four targets, found in the built site.
article=$(cd "$DIST" && ls articles/*.html | head -1); article=/${article%.html}
script=$(cd "$DIST" && ls -S assets/*.js | head -1); script=/$script
pagedata=$(cd "$DIST" && ls -S page-data/articles/*/page-data.json 2>/dev/null | head -1 || true)
[[ -n $pagedata ]] || pagedata=$(cd "$DIST" && find page-data -name page-data.json | head -1)
pagedata=/$pagedata
TARGETS=("article $article" "home /" "js $script" "page-data $pagedata")

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

nginx_conf() { # PORT TLS(0/1) PIDFILE
  local listen="listen 127.0.0.1:$1;"
  # TLS 1.3 as Debian's /etc/nginx/nginx.conf enables it (nginx 1.22's built-in default stops at
  # 1.2), so both servers negotiate the same protocol and AES-256-GCM with wrk.
  [[ $2 == 1 ]] && listen="listen 127.0.0.1:$1 ssl http2; ssl_certificate $WORK/cert.pem; ssl_certificate_key $WORK/key.pem; ssl_protocols TLSv1.2 TLSv1.3;"
  cat <<CONF
worker_processes auto;
pid $3;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on; tcp_nopush on; keepalive_requests 100000;
  gzip on; gzip_types text/css application/javascript text/javascript application/json application/xml image/svg+xml;
  client_body_temp_path $WORK; proxy_temp_path $WORK; fastcgi_temp_path $WORK; uwsgi_temp_path $WORK; scgi_temp_path $WORK;
  server { $listen root $DIST; location / { try_files \$uri \$uri.html \$uri/index.html =404; } }
}
CONF
}
nginx_conf "$NG_PORT" 0 "$WORK/nginx.pid" >"$WORK/nginx.conf"
nginx_conf "$NG_TLS_PORT" 1 "$WORK/nginx-tls.pid" >"$WORK/nginx-tls.conf"
/usr/sbin/nginx -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log"
/usr/sbin/nginx -c "$WORK/nginx-tls.conf" -e "$WORK/nginx-error.log"

# nginx daemonizes into a session of its own; with the kernel's scheduler autogroups (on by
# default) that session gets its own share of the CPUs, while a server started here would share
# one with wrk and this script. `setsid` gives stillpoint the same footing. (Not a group leader
# here, so setsid execs in place and $! is the server.)
setsid "$BIN" serve "$DIST" --port "$SP_PORT" 2>"$WORK/serve.log" & PIDS+=($!); SP_PID=$!
setsid "$BIN" serve "$DIST" --port "$SP_TLS_PORT" --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem" \
  2>"$WORK/serve-tls.log" & PIDS+=($!); SP_TLS_PID=$!
for port in $SP_PORT $NG_PORT; do
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
done
for port in $SP_TLS_PORT $NG_TLS_PORT; do
  for _ in $(seq 50); do curl -sk -o /dev/null "https://127.0.0.1:$port/" && break; sleep 0.1; done
done

# Same bytes from both (uncompressed), and a warm cache for both.
for t in "${TARGETS[@]}"; do
  path=${t#* }
  a=$(curl -s "http://127.0.0.1:$SP_PORT$path" | sha256sum); b=$(curl -s "http://127.0.0.1:$NG_PORT$path" | sha256sum)
  [[ $a == "$b" ]] || { echo "bench: $path differs between stillpoint and nginx" >&2; exit 1; }
  for base in "http://127.0.0.1:$SP_PORT" "https://127.0.0.1:$SP_TLS_PORT"; do
    curl -sk -o /dev/null -H 'Accept-Encoding: br, gzip' "$base$path"
  done
done

# wrk → "req/s p50 p99 errors"
measure() { # URL ENCODING
  local header=() out
  [[ -n $2 ]] && header=(-H "Accept-Encoding: $2")
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "${header[@]}" "$1" 2>&1)
  local rps p50 p99 errors non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  errors=$(awk '/Socket errors/ {gsub(",", ""); print $4+$6+$8+$10}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  echo "${rps:-0} ${p50:--} ${p99:--} $(( ${errors:-0} + ${non2xx:-0} ))"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); RUNS=$RUNS"
printf '%-6s %-10s %-10s | %12s %17s %17s %5s | %9s %17s %17s %5s | %6s\n' \
  proto target encoding "stillpoint/s" p50 p99 errs "nginx/s" p50 p99 errs ratio
for proto in http https; do
  if [[ $proto == http ]]; then sp=http://127.0.0.1:$SP_PORT ng=http://127.0.0.1:$NG_PORT
  else sp=https://127.0.0.1:$SP_TLS_PORT ng=https://127.0.0.1:$NG_TLS_PORT; fi
  for t in "${TARGETS[@]}"; do
    name=${t%% *} path=${t#* }
    for enc in "" "br, gzip"; do
      [[ -z $ONLY || "$proto $name ${enc:-identity}" =~ $ONLY ]] || continue
      rounds=()
      for _ in $(seq "$RUNS"); do
        # A-B-B-A halves, so a change in the machine's load hurts both servers alike.
        read -r s_rps s_p50 s_p99 s_err <<<"$(measure "$sp$path" "$enc")"
        read -r n_rps n_p50 n_p99 n_err <<<"$(measure "$ng$path" "$enc")"
        read -r n2_rps n2_p50 n2_p99 n2_err <<<"$(measure "$ng$path" "$enc")"
        read -r s2_rps s2_p50 s2_p99 s2_err <<<"$(measure "$sp$path" "$enc")"
        s_rps=$(awk -v a="$s_rps" -v b="$s2_rps" 'BEGIN { printf "%.0f", (a + b) / 2 }')
        n_rps=$(awk -v a="$n_rps" -v b="$n2_rps" 'BEGIN { printf "%.0f", (a + b) / 2 }')
        s_err=$((s_err + s2_err)) n_err=$((n_err + n2_err))
        s_p50="$s_p50/$s2_p50" s_p99="$s_p99/$s2_p99" n_p50="$n_p50/$n2_p50" n_p99="$n_p99/$n2_p99"
        ratio=$(awk -v a="$s_rps" -v b="$n_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        rounds+=("$ratio $s_rps $s_p50 $s_p99 $s_err $n_rps $n_p50 $n_p99 $n_err")
      done
      # The round with the median ratio.
      read -r ratio s_rps s_p50 s_p99 s_err n_rps n_p50 n_p99 n_err \
        <<<"$(printf '%s\n' "${rounds[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")"
      all=$(printf '%s\n' "${rounds[@]}" | awk '{printf "%s%s", (NR > 1 ? " " : ""), $1}')
      printf '%-6s %-10s %-10s | %12s %17s %17s %5s | %9s %17s %17s %5s | %5sx' \
        "$proto" "$name" "${enc:-identity}" "$s_rps" "$s_p50" "$s_p99" "$s_err" "$n_rps" "$n_p50" "$n_p99" "$n_err" "$ratio"
      if ((RUNS > 1)); then printf '  (%s)' "$all"; fi
      echo
    done
  done
done
echo
echo "stillpoint serve peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/$SP_PID/status) (plain), $(awk '/VmHWM/ {print $2, $3}' /proc/$SP_TLS_PID/status) (TLS)"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "targets: article $article, home /, js $script, page-data $pagedata; wrk -t2 -c$CONNECTIONS -d${DURATION}s"
