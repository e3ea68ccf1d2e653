#!/usr/bin/env bash
# Runs the cuconform-tests of TAG that render pages in headless Chromium, where a Chromium is
# installed; without one it reports SKIPPED (exit 77, CTest's SKIP_RETURN_CODE). The one body of
# ci/history-screenshot-test.sh and suites/host/report-render-test.sh.
# usage: ci/chromium-test.sh PATH/cuconform-tests TAG WHAT  (WHAT: what goes unrendered, for the skip line)
set -euo pipefail
usage="usage: chromium-test.sh PATH/cuconform-tests TAG WHAT"
tests=${1:?$usage}
tag=${2:?$usage}
what=${3:?$usage}
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then exec "$tests" "$tag"; fi
done
echo "SKIPPED: chromium is not installed (apt-get install chromium): $what"
exit 77
