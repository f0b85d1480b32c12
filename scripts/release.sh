#!/usr/bin/env bash
# The release artifacts of one target, as the release workflow publishes them:
#   OUT/stillpoint-VERSION-TARGET.tar.gz (.zip on Windows): the executable, README, CHANGELOG,
#       LICENSE, shell completions and manual pages; the web bundle is inside the executable
#   OUT/stillpoint-VERSION-TARGET.debug: the debug information split off the executable (Linux)
#   OUT/npm/*.tgz: the `stillpoint`, `create-stillpoint` and platform npm packages
#   OUT/SHA256SUMS
# Needs the web bundle built (`make web`). PROFILE (default dist: fat LTO, one codegen unit),
# TARGET (default the host's) and OUT (default target/artifacts) may be set; BIN=PATH packages
# that executable, already built for TARGET, instead of building one (`make test-release`).
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-dist}
HOST=$(rustc -vV | sed -n 's/^host: //p')
TARGET=${TARGET:-$HOST}
OUT=${OUT:-target/artifacts}
VERSION=$(cargo pkgid -p stillpoint | sed 's/.*@//')

[[ -f web/dist/server/worker.js ]] || { echo "error: web/dist is not built: run make web" >&2; exit 1; }

target_args=() bin_dir=target
if [[ $TARGET != "$HOST" ]]; then target_args=(--target "$TARGET") bin_dir=target/$TARGET; fi
if [[ $PROFILE == dev ]]; then bin_dir+=/debug; else bin_dir+=/$PROFILE; fi
exe=stillpoint
if [[ $TARGET == *windows* ]]; then exe=stillpoint.exe; fi
if [[ -n ${BIN:-} ]]; then
  [[ -x $BIN ]] || { echo "error: BIN=$BIN is not an executable" >&2; exit 1; }
  built=$BIN
else
  cargo build --profile "$PROFILE" --locked -p stillpoint "${target_args[@]}"
  built=$bin_dir/$exe
fi

name=stillpoint-$VERSION-$TARGET
stage=$OUT/$name
rm -rf "$OUT"
mkdir -p "$stage/completions" "$stage/man" "$OUT/npm"
cp "$built" "$stage/$exe"
if [[ $TARGET == *linux* ]]; then
  # Debug information goes to its own file, linked from the executable by name and checksum.
  objcopy --only-keep-debug "$stage/$exe" "$OUT/$name.debug"
  objcopy --strip-debug --strip-unneeded --add-gnu-debuglink="$OUT/$name.debug" "$stage/$exe"
fi

# Everything below runs the built executable, so only where it can run.
if [[ $TARGET == "$HOST" ]]; then
  version_text=$("$stage/$exe" --version)
  grep -q '^web bundle: embedded' <<<"$version_text" \
    || { echo "error: the executable does not carry the web bundle:" >&2; echo "$version_text" >&2; exit 1; }
  "$stage/$exe" completions bash >"$stage/completions/stillpoint.bash"
  "$stage/$exe" completions zsh >"$stage/completions/_stillpoint"
  "$stage/$exe" completions fish >"$stage/completions/stillpoint.fish"
  "$stage/$exe" man --dir "$stage/man"
fi
cp README.md CHANGELOG.md LICENSE "$stage/"

if [[ $TARGET == *windows* ]]; then
  (cd "$OUT" && 7z a -bd -tzip "$name.zip" "$name" >/dev/null)
else
  owner=(--numeric-owner)
  tar --version | grep -q GNU && owner+=(--owner=0 --group=0)
  tar -C "$OUT" -czf "$OUT/$name.tar.gz" "${owner[@]}" "$name"
fi

sha256=(sha256sum)
command -v sha256sum >/dev/null || sha256=(shasum -a 256)
node packages/pack.mjs --version "$VERSION" --binary "$stage/$exe" --target "$TARGET" --out "$OUT/npm"

(cd "$OUT" && find . -maxdepth 2 -type f \( -name '*.tar.gz' -o -name '*.zip' -o -name '*.debug' -o -name '*.tgz' \) \
  | sed 's|^\./||' | sort | xargs "${sha256[@]}" >SHA256SUMS)
echo "Artifacts of stillpoint $VERSION for $TARGET in $OUT:"
(cd "$OUT" && ls -l "$name"* npm SHA256SUMS | sed 's/^/  /')
echo "executable: $(wc -c <"$built") bytes as built, $(wc -c <"$stage/$exe") bytes shipped"
