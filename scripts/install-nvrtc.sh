#!/usr/bin/env bash
# Installs NVIDIA's NVRTC (the pinned nvidia-cuda-nvrtc-cu12 wheel) into <project>/.polygpu/nvrtc, where the
# runtime's library locator finds it, with the CUDA headers NVRTC does not ship: the CUDA runtime's
# (cooperative_groups.h, cuda_fp16.h, cuda_bf16.h) and CCCL's (CUB, Thrust, cuda/std), from the wheels of the same
# CUDA release, which polygpu passes to NVRTC as include directories. Does nothing when POLYGPU_NVRTC names a file,
# when a CUDA toolkit (which has its own headers) already provides libnvrtc, or when the project-local copy and its
# headers are already installed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

nvrtc_wheel="nvidia-cuda-nvrtc-cu12==12.9.86"
# The header wheels of the same CUDA release (12.9) as NVRTC; pip's --target replaces the whole nvidia/ folder, so
# the three are always installed together.
header_wheels=("nvidia-cuda-runtime-cu12==12.9.79" "nvidia-cuda-cccl-cu12==12.9.27")
nvrtc_target="$polygpu_root/.polygpu/nvrtc"
nvrtc_library="$nvrtc_target/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"
runtime_header="$nvrtc_target/nvidia/cuda_runtime/include/cuda_fp16.h"
cccl_header="$nvrtc_target/nvidia/cuda_cccl/include/cub/cub.cuh"
# Without NVRTC the tests that compile CUDA are skipped; in CI that would hide them, so there it is an error.
missing_status=0
[ -n "${CI:-}" ] && missing_status=1

if [ -n "${POLYGPU_NVRTC:-}" ] && [ -f "$POLYGPU_NVRTC" ]; then
    exit 0
fi
for toolkit in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    if [ -n "$toolkit" ] && compgen -G "$toolkit/lib64/libnvrtc.so*" >/dev/null; then
        exit 0
    fi
done
if compgen -G "/usr/lib/x86_64-linux-gnu/libnvrtc.so*" >/dev/null; then
    exit 0
fi
if [ -f "$nvrtc_library" ] && [ -f "$runtime_header" ] && [ -f "$cccl_header" ]; then
    exit 0
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "No NVRTC found and python3 is missing, so $nvrtc_wheel cannot be installed;" \
        "NVRTC-based tests will be skipped. Set POLYGPU_NVRTC to a libnvrtc.so to enable them." >&2
    exit "$missing_status"
fi
echo "Installing NVRTC ($nvrtc_wheel) and the CUDA headers (${header_wheels[*]}) into $nvrtc_target..." >&2
if ! PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --upgrade \
        --target "$nvrtc_target" "$nvrtc_wheel" "${header_wheels[@]}"; then
    echo "Could not install $nvrtc_wheel and its headers; NVRTC-based tests will be skipped." >&2
    exit "$missing_status"
fi
for file in "$nvrtc_library" "$runtime_header" "$cccl_header"; do
    [ -f "$file" ] || { echo "The wheels did not provide $file." >&2; exit 1; }
done
