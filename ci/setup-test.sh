#!/usr/bin/env bash
# ci/setup.sh on a login node without sudo (CTest: host:setup-without-sudo): run as a user that
# is not root, with sudo and one optional extra (yamllint) out of PATH and the required packages
# installed, it must exit 0 and say the extras were skipped (it used to exit 127, "sudo: command
# not found", and stop what called it). Skipped (77) where the packages are not installed yet.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
for p in catch2 libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev libpq-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || { echo "SKIPPED: $p is not installed (run ci/setup.sh first)"; exit 77; }
done
bin=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-nosudo.XXXXXX")
# setup.sh from a tree of its own: a checkout's .deps/debs (packages carried to a GPU machine)
# would send it down the unpacking path, which is not the one under test.
tree=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-nosudo-tree.XXXXXX")
trap 'rm -rf "$bin" "$tree"' EXIT
chmod 755 "$bin" "$tree"
mkdir -p "$tree/ci" && cp "$root/ci/setup.sh" "$tree/ci/" && chmod -R a+rX "$tree"
for d in /usr/local/bin /usr/bin /bin; do
  for f in "$d"/*; do
    n=$(basename "$f")
    case $n in sudo | yamllint) continue ;; esac
    [ -e "$bin/$n" ] || ln -s "$f" "$bin/$n"
  done
done
as=()
if [ "$(id -u)" -eq 0 ]; then
  command -v runuser >/dev/null 2>&1 || { echo "SKIPPED: root without runuser"; exit 77; }
  as=(runuser -u nobody --)
fi
out=$("${as[@]}" env PATH="$bin" bash "$tree/ci/setup.sh" 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || { echo "FAIL: ci/setup.sh exited $rc without sudo"; exit 1; }
grep -q "not root and no sudo: optional extras not installed (.*yamllint" <<<"$out" || { echo "FAIL: the skipped extras are not named"; exit 1; }
echo "ok: ci/setup.sh without sudo exits 0 and names the extras it skipped"
