#!/usr/bin/env bash
# The CUDA 13.0 toolkit on Debian 12 from NVIDIA's apt repository, for a bare Debian 12 image
# (ci/k8s/Dockerfile, the GitHub/GitLab host-CI jobs): the repository's keyring package, then
# cuda-toolkit-13-0 (nvcc, ptxas, cuobjdump and the headers cuconform builds with). Needs root
# and that repository; a machine with /usr/local/cuda-13.0 already (the project's own CI) skips.
set -euo pipefail
if [ -x /usr/local/cuda-13.0/bin/nvcc ]; then
  echo "cuda-debian12: CUDA 13.0 is already at /usr/local/cuda-13.0"
  exit 0
fi
. /etc/os-release
if [ "${ID:-}" != debian ] || [ "${VERSION_ID:-}" != 12 ]; then
  echo "cuda-debian12: this installs NVIDIA's Debian 12 packages; this is ${PRETTY_NAME:-unknown}" >&2
  exit 2
fi
case $(uname -m) in
  x86_64) arch=x86_64 ;;
  aarch64) arch=sbsa ;;
  *) echo "cuda-debian12: no CUDA repository for $(uname -m)" >&2; exit 2 ;;
esac
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends ca-certificates curl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL -o "$tmp/cuda-keyring.deb" "https://developer.download.nvidia.com/compute/cuda/repos/debian12/$arch/cuda-keyring_1.1-1_all.deb"
dpkg -i "$tmp/cuda-keyring.deb"
apt-get update -q
apt-get install -y -q --no-install-recommends cuda-toolkit-13-0
[ -e /usr/local/cuda ] || ln -s /usr/local/cuda-13.0 /usr/local/cuda
echo "cuda-debian12: $(/usr/local/cuda-13.0/bin/nvcc --version | tail -1)"
