#!/usr/bin/env bash
# The [certify] host tests (test_contract_certify.cpp) need OpenSSH's ssh-keygen (Debian's
# openssh-client, an extra of ci/setup.sh) and coreutils' sha256sum: skipped, with the reason,
# where ssh-keygen is absent, never passed.
set -u
for tool in ssh-keygen sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIPPED: $tool not installed (openssh-client / coreutils)"; exit 77; }
done
exec "$1" "[certify]"
