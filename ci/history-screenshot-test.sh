#!/usr/bin/env bash
# The history report rendered by headless Chromium (suites/host/test_history.cpp, [history-render]):
# a PNG must come out and must not be blank. Registered with CTest (label host); without chromium
# it reports SKIPPED (exit 77). CUCONFORM_HISTORY_SCREENSHOT=FILE keeps the picture.
# usage: ci/history-screenshot-test.sh build/cuconform-tests
set -euo pipefail
tests=${1:?usage: history-screenshot-test.sh PATH/cuconform-tests}
exec bash "$(dirname "$0")/chromium-test.sh" "$tests" "[history-render]" "the history report was not rendered"
