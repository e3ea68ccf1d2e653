#!/usr/bin/env bash
# Deeply nested JSON given to the verbs that read results: a 1 MB and a 10 MB file of nested
# arrays (under a key no reader looks at, with no "cases": the worst case for the error locator,
# which then searches the whole text), each must be refused (exit 2, FILE:LINE:COLUMN) in under
# 2 s and 200 MB. Also measured, not gated: a gzip bomb (1 GiB of zeros in 1 MB of .json.gz),
# refused once it inflates past the 256 MiB a results file may hold. Wall time and peak memory come from /usr/bin/time -v; the table goes to stdout
# as Markdown (docs/bad-inputs.md). Not a test: CTest checks the refusal and the message
# (suites/host/test_bad_inputs.cpp), this measures it.
# usage: ci/bench-bad-json.sh [BUILD_DIR]   (env: LIMIT_MB=4000 caps each command's address space)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/build}/cuconform
[ -x "$exe" ] || { echo "bench-bad-json: no $exe (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-bad-json: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-bad-json.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A results head, then N levels of "[", their "]", and the closing brace.
nested() {  # nested FILE BYTES
  local levels=$(( ($2 - 64) / 2 ))
  { printf '{"schema": "cuconform-results/1", "x": '
    head -c "$levels" /dev/zero | tr '\0' '['
    head -c "$levels" /dev/zero | tr '\0' ']'
    printf '}\n'; } > "$1"
}

echo "bench-bad-json: $exe (commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# One command under /usr/bin/time -v and the address-space cap: sets rc, wall (s), rss (MB), msg.
measure() {
  set +e
  (ulimit -v "$(( ${LIMIT_MB:-4000} * 1024 ))"; /usr/bin/time -v -o "$work/time" timeout 120 "$exe" "$@") > "$work/out" 2>&1
  rc=$?
  set -e
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.2f", s }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$work/time")
  msg=$(head -n 1 "$work/out" | sed "s|$work/||g" | cut -c1-110)
}

echo "| file | verb | exit | wall s | peak RSS MB | message |"
echo "|---|---|---|---|---|---|"
fail=0
for size in 1000000 10000000; do
  f="$work/nested-$((size / 1000000))MB.json"
  nested "$f" "$size"
  for verb in report merge compare "history add"; do
    case $verb in
      report) measure report "$f" ;;
      merge) measure merge "$f" -o "$work/m.json" ;;
      compare) measure compare "$f" "$f" ;;
      "history add") measure history add --db "$work/h.sqlite" "$f" ;;
    esac
    echo "| $(basename "$f") ($(du -h "$f" | cut -f1)) | $verb | $rc | $wall | $rss | \`$msg\` |"
    if [ "$rc" -ne 2 ] || awk -v w="$wall" -v r="$rss" 'BEGIN { exit !(w >= 2 || r >= 200) }'; then fail=1; fi
  done
done
# The bomb: the cost of refusing it is the limit itself (inflated into memory up to 256 MiB).
head -c 1073741824 /dev/zero | gzip -1 > "$work/bomb.json.gz"
measure report "$work/bomb.json.gz"
echo "| bomb.json.gz ($(du -h "$work/bomb.json.gz" | cut -f1), 1 GiB inflated) | report | $rc | $wall | $rss | \`$msg\` |"
[ "$rc" -eq 2 ] || fail=1
[ "$fail" -eq 0 ] && echo "bench-bad-json: every file refused with exit 2 in under 2 s and 200 MB" >&2 \
  || echo "bench-bad-json: a file was not refused within 2 s and 200 MB (see the table)" >&2
exit "$fail"
