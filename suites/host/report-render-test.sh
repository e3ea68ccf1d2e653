#!/usr/bin/env bash
# The report pages rendered by headless Chromium (suites/host/test_reporters_html_render.cpp,
# [.report-render]): screenshots at 1400 and 900 px, no page wider than its window, a matrix link
# landing on an area's failures. Registered with CTest as host:report-render (label host); without
# chromium it reports SKIPPED (exit 77). The screenshots and pages stay in BUILD/report-screenshots.
# usage: suites/host/report-render-test.sh build/cuconform-tests
set -euo pipefail
tests=${1:?usage: report-render-test.sh PATH/cuconform-tests}
exec bash "$(dirname "$0")/../../ci/chromium-test.sh" "$tests" "[report-render]" "the report pages were not rendered"
