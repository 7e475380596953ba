#!/usr/bin/env bash
# Installs NVIDIA's cuBLAS (the pinned nvidia-cublas-cu12 wheel, about 600 MB) into <project>/.polygpu/cublas, where
# the CUDA backend's locator finds it for the BLAS:: functions. Only needed on a GPU machine without a CUDA toolkit;
# the emulator runs BLAS in Java and needs nothing. Does nothing when POLYGPU_CUBLAS names a file, when a CUDA toolkit
# or the system already provides libcublas, or when the project-local copy is already installed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cublas_wheel="nvidia-cublas-cu12==12.9.3.13"
cublas_target="$polygpu_root/.polygpu/cublas"
cublas_library="$cublas_target/nvidia/cublas/lib/libcublas.so.12"

if [ -n "${POLYGPU_CUBLAS:-}" ] && [ -f "$POLYGPU_CUBLAS" ]; then
    exit 0
fi
for directory in "${CUDA_HOME:-}/lib64" "${CUDA_PATH:-}/lib64" /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu; do
    if compgen -G "$directory/libcublas.so*" >/dev/null; then
        exit 0
    fi
done
if [ -f "$cublas_library" ]; then
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "No cuBLAS found and python3 is missing, so $cublas_wheel cannot be installed; set POLYGPU_CUBLAS to a" \
        "libcublas.so to call BLAS:: functions on the CUDA backend." >&2
    exit 1
fi
echo "Installing cuBLAS ($cublas_wheel) into $cublas_target..." >&2
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --upgrade \
    --target "$cublas_target" "$cublas_wheel"
[ -f "$cublas_library" ] || { echo "The wheel did not provide $cublas_library." >&2; exit 1; }
