#!/usr/bin/env bash
# Installs NVIDIA's NVRTC (the pinned nvidia-cuda-nvrtc-cu12 wheel) into <project>/.polygpu/nvrtc, where the
# runtime's library locator finds it. Does nothing when POLYGPU_NVRTC names a file, when a CUDA toolkit already
# provides libnvrtc, or when the project-local copy is already installed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

nvrtc_wheel="nvidia-cuda-nvrtc-cu12==12.9.86"
nvrtc_target="$polygpu_root/.polygpu/nvrtc"
nvrtc_library="$nvrtc_target/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"
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
if compgen -G "/usr/lib/x86_64-linux-gnu/libnvrtc.so*" >/dev/null || [ -f "$nvrtc_library" ]; then
    exit 0
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "No NVRTC found and python3 is missing, so $nvrtc_wheel cannot be installed;" \
        "NVRTC-based tests will be skipped. Set POLYGPU_NVRTC to a libnvrtc.so to enable them." >&2
    exit "$missing_status"
fi
echo "Installing NVRTC ($nvrtc_wheel) into $nvrtc_target..." >&2
if ! PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --upgrade \
        --target "$nvrtc_target" "$nvrtc_wheel"; then
    echo "Could not install $nvrtc_wheel; NVRTC-based tests will be skipped." >&2
    exit "$missing_status"
fi
[ -f "$nvrtc_library" ] || { echo "The wheel did not provide $nvrtc_library." >&2; exit 1; }
