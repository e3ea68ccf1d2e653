#!/usr/bin/env bash
set -u
O=/tmp/gf; rm -rf $O; mkdir -p $O
CUCONFORM_SKIP_CTEST=1 CUCONFORM_SKIP_MUTATION=1 timeout 330 bash ci/gpu-run.sh $O > $O/console.txt 2>&1
echo "gpu-run exit $?"
grep -E "^==|verdicts:|timing|GPU lane:|host tools|RESULT|regression\(s\)|baseline:|new failure|coverage lost|removed:" $O/console.txt | head -40
tar czf $OUT/gf.tgz -C /tmp gf
