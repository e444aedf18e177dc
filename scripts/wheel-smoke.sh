#!/usr/bin/env bash
# The installed package is the product: build the wheel, install it in a fresh venv, and use it
# from a folder outside the repository with a fresh cache. Then the same again with site-packages
# and $HOME as read-only bind mounts in a private mount namespace (needs root, as in CI; skipped
# otherwise), so that nothing may be written beside the installed code, only under
# $EXACTODDS_CACHE_DIR.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}

work=$(mktemp -d /tmp/exactodds-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "wheel smoke test in $work"

"$python" -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" "$repo"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "$work/dist"/exactodds-*.whl
mkdir -p "$work/home" "$work/elsewhere"
hand="$work/elsewhere/hand.phh"
cp "$repo/examples/hands/home_rules_worked_example.phh" "$hand"

# checks.sh CACHE: the four commands from another folder, with a fresh cache folder CACHE
cat > "$work/checks.sh" <<CHECKS
set -euo pipefail
cd "$work/elsewhere"
export HOME="$work/home" EXACTODDS_CACHE_DIR="\$1"
unset EXACTODDS_TABLES NUMBA_CACHE_DIR PYTHONPATH
bin="$work/venv/bin"
fail() { echo "wheel smoke test FAILED: \$*" >&2; exit 1; }
out=\$("\$bin/exactodds" caribbean decide "Qh Qs 9d 6c 2h" --up Jh) || fail "decide exited \$?"
grep -q "42797/32637" <<<"\$out" || fail "decide: EV(raise) 42797/32637 not shown: \$out"
out=\$("\$bin/exactodds" caribbean analyze --paytable betmgm --json) || fail "analyze exited \$?"
grep -q -- "-738262709372" <<<"\$out" || fail "analyze --paytable betmgm: total -738262709372 not found"
"\$bin/exactodds" caribbean verify > verify.txt || fail "verify exited \$?: \$(tail -5 verify.txt)"
out=\$("\$bin/exactodds" stud replay "$hand") || fail "stud replay exited \$?"
grep -qi "net" <<<"\$out" || fail "stud replay printed no result: \$out"
"\$bin/python" -m exactodds --version > /dev/null || fail "python -m exactodds --version"
"\$bin/python" -c "from exactodds.caribbean.table.server import static_dir; import pathlib, sys; sys.exit(not all((pathlib.Path(static_dir()) / f).is_file() for f in ('index.html', 'table.js', 'table.css')))" || fail "the table page's files are not in the wheel"
echo "wheel smoke test passed: decide, analyze (exact total), verify, stud replay, python -m exactodds"
CHECKS

echo "plain install:"
bash "$work/checks.sh" "$work/cache-plain"

if [ "$(id -u)" != 0 ]; then
  echo "read-only install: skipped (a private mount namespace needs root)"
  exit 0
fi
echo "read-only install (site-packages and \$HOME mounted read-only):"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
find "$site/exactodds" -name '*.nb[ic]' -delete  # the plain run cached kernels there; start afresh
unshare --mount --propagation private bash -c "
  set -e
  for dir in '$site' '$work/home'; do mount --bind \"\$dir\" \"\$dir\"; mount -o remount,bind,ro \"\$dir\"; done
  if touch '$site/.probe' 2>/dev/null; then echo 'site-packages is still writable' >&2; exit 1; fi
  bash '$work/checks.sh' '$work/cache-read-only'
"
if find "$site/exactodds" -name '*.nbi' | grep -q .; then
  echo "wheel smoke test FAILED: numba cache written into site-packages" >&2; exit 1
fi
find "$work/cache-read-only" -name '*.nbi' | grep -q . || {
  echo "wheel smoke test FAILED: numba cache not under EXACTODDS_CACHE_DIR" >&2; exit 1; }
