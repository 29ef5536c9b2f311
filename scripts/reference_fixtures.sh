#!/usr/bin/env bash
# Regenerates tests/fixtures/mamba_reference.json from state-spaces/mamba's reference
# implementations (see scripts/reference_fixtures.py). Installs torch, numpy, einops and the CPU
# build of mamba-ssm 2.3.2 into a throwaway virtual environment (about 5 GB, several minutes;
# CI never runs this: the fixture is committed).
#
# usage: scripts/reference_fixtures.sh [VENV]   (default: target/reference-venv, kept for reuse)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-target/reference-venv}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet torch numpy einops packaging wheel setuptools
    # The CPU build: no CUDA extension is compiled (mamba-ssm's own switches).
    MAMBA_SKIP_CUDA_BUILD=TRUE MAMBA_FORCE_BUILD=TRUE "$VENV/bin/pip" install --quiet --no-build-isolation --no-deps mamba-ssm==2.3.2.post1
    # causal-conv1d's reference convolution (mamba_inner_ref calls it), without its CUDA kernels.
    CAUSAL_CONV1D_SKIP_CUDA_BUILD=TRUE CAUSAL_CONV1D_FORCE_BUILD=TRUE "$VENV/bin/pip" install --quiet --no-build-isolation --no-deps causal-conv1d==1.5.0.post8
fi
"$VENV/bin/python" scripts/reference_fixtures.py tests/fixtures/mamba_reference.json
