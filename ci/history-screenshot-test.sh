#!/usr/bin/env bash
# The history report rendered by headless Chromium (suites/host/test_history.cpp, [history-render]):
# a PNG must come out and must not be blank. Registered with CTest (label host); without chromium
# it reports SKIPPED (exit 77). CUCONFORM_HISTORY_SCREENSHOT=FILE keeps the picture.
# usage: ci/history-screenshot-test.sh build/cuconform-tests
set -euo pipefail
tests=${1:?usage: history-screenshot-test.sh PATH/cuconform-tests}
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then exec "$tests" "[history-render]"; fi
done
echo "SKIPPED: chromium is not installed (apt-get install chromium): the history report was not rendered"
exit 77
