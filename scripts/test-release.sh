#!/usr/bin/env bash
# scripts/test-release.sh ARTIFACTS: the Linux x64 release artifacts of scripts/release.sh, end to
# end, as a user without Rust gets them: the checksums verify; the archive's executable, alone in
# a fresh directory with no checkout and no web bundle beside it, creates, checks and builds a
# site; then the npm packages install and serve it (packages/test/install.sh).
set -euo pipefail
artifacts=$(cd "${1:?usage: test-release.sh ARTIFACTS}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "test-release.sh: FAIL: $*" >&2; exit 1; }

(cd "$artifacts" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not verify"
archive=$(ls "$artifacts"/stillpoint-*-x86_64-unknown-linux-gnu.tar.gz) || fail "no Linux x64 archive"

work=$(mktemp -d "${TMPDIR:-/tmp}/stillpoint-release.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$archive"
root=$(echo "$work"/stillpoint-*)
for f in stillpoint README.md CHANGELOG.md LICENSE completions/stillpoint.bash \
  completions/_stillpoint completions/stillpoint.fish man/stillpoint.1 man/stillpoint-build.1; do
  [[ -s $root/$f ]] || fail "the archive lacks $f"
done
bash -n "$root/completions/stillpoint.bash" || fail "the bash completions do not parse"
if readelf -S "$root/stillpoint" | grep -q '\.debug_line'; then fail "the shipped executable still carries its line tables"; fi
readelf -p .gnu_debuglink "$root/stillpoint" | grep -q '\.debug' || fail "no .gnu_debuglink to the debug file"

# Alone: no PATH to cargo, no web/ beside it, a fresh cache.
cd "$work"
export PATH="$(dirname "$(command -v node)"):/usr/bin:/bin" STILLPOINT_CACHE_DIR="$work/cache"
unset STILLPOINT_WEB
"$root/stillpoint" --version | grep -q '^web bundle: embedded' || fail "the executable does not carry its web bundle"
"$root/stillpoint" new site >/dev/null
"$root/stillpoint" check site
"$root/stillpoint" build site --out dist
[[ -s dist/index.html && -s dist/sitemap.xml ]] || fail "the build wrote no site"
echo "test-release.sh: the archive works alone"

bash "$here/../packages/test/install.sh" "$artifacts/npm"
