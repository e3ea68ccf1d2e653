#!/usr/bin/env bash
# The report pages rendered by headless Chromium (suites/host/test_reporters_html_render.cpp,
# [.report-render]): screenshots at 1400 and 900 px, no page wider than its window, a matrix link
# landing on an area's failures. Registered with CTest as host:report-render (label host); without
# chromium it reports SKIPPED (exit 77). The screenshots and pages stay in BUILD/report-screenshots.
# usage: suites/host/report-render-test.sh build/cuconform-tests
set -euo pipefail
tests=${1:?usage: report-render-test.sh PATH/cuconform-tests}
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then exec "$tests" "[report-render]"; fi
done
echo "SKIPPED: chromium is not installed (apt-get install chromium): the report pages were not rendered"
exit 77
