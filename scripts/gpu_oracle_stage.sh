#!/usr/bin/env bash
# Stages what scripts/gpu_oracle.py needs besides torch and triton into target/oracle/ (about
# 2 MB, so it can travel to a GPU machine that has no network): mamba_ssm's Python source from
# its PyPI sdist (checked against the index's sha256; the CUDA sources are not kept) and the
# einops and packaging wheels unpacked.
#
# usage: scripts/gpu_oracle_stage.sh [VERSION]   (default 2.3.2.post1, the fixture's version)
set -euo pipefail
version=${1:-2.3.2.post1}
here=$(cd "$(dirname "$0")/.." && pwd)
dest=$here/target/oracle
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
link=$(curl -fsS https://pypi.org/simple/mamba-ssm/ | grep -o "https://[^\"]*mamba_ssm-$version.tar.gz#sha256=[0-9a-f]*" | head -1)
[ -n "$link" ] || { echo "error: mamba-ssm $version has no sdist on PyPI" >&2; exit 1; }
curl -fsSL -o "$tmp/sdist.tar.gz" "${link%%#*}"
echo "${link##*=}  $tmp/sdist.tar.gz" | sha256sum -c --quiet
tar xzf "$tmp/sdist.tar.gz" -C "$tmp" --wildcards "*/mamba_ssm/*.py"
pip download --quiet --no-deps einops packaging -d "$tmp/wheels"
rm -rf "$dest.partial" && mkdir -p "$dest.partial/mamba-ssm-$version"
mv "$tmp"/mamba_ssm-"$version"/mamba_ssm "$dest.partial/mamba-ssm-$version/"
for w in "$tmp"/wheels/*.whl; do python3 -m zipfile -e "$w" "$dest.partial/site"; done
rm -rf "$dest" && mv "$dest.partial" "$dest"
echo "staged $dest (mamba-ssm $version; PYTHONPATH=$dest/site)"
