#!/usr/bin/env bash
# Builds polygpu, fetches what the tests need (Maven dependencies), and runs every test that does not need a GPU.
# Tests tagged `gpu` (real GPU needed) are excluded here. Installs Maven (the apt package maven) when mvn is missing,
# Open MPI (openmpi-bin, libopenmpi-dev) when mpirun is missing,
# NVRTC (scripts/install-nvrtc.sh) when no NVRTC is found, and the real-world kernel corpus (scripts/install-corpus.sh:
# published CUDA sources, pinned by sha256, into .polygpu/corpus). Then (re-)creates the JDK's AOT cache for
# bin/polygpu --no-jit (scripts/aot-cache.sh) and checks that the JVM maps it.
# numpy for polygpu's GraalPy is built only with POLYGPU_NUMPY=1 (scripts/numpy.sh: once per machine, but far longer
# than the tests); without it the numpy test is skipped unless an earlier scripts/numpy.sh installed it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_install_maven
polygpu_install_mpi
"$polygpu_root/scripts/install-nvrtc.sh"
"$polygpu_root/scripts/install-corpus.sh"
if [ "${POLYGPU_NUMPY:-0}" = 1 ]; then
    "$polygpu_root/scripts/numpy.sh"
fi
cd "$polygpu_root"
mvn -B -ntp "$@" install
mkdir -p target && touch target/.polygpu-build-stamp
# The GPU pack must not break unnoticed: it is built and run once here, without a GPU its GPU steps say so.
"$polygpu_root/scripts/gpu-pack.sh"
OUT="$polygpu_root/target/gpu-pack-dry-run" "$polygpu_root/target/gpu-pack/run.sh" >/dev/null
if "$polygpu_root/scripts/aot-cache.sh"; then
    POLYGPU_JAVA_OPTS="-XX:AOTMode=on" "$polygpu_root/bin/polygpu" --no-jit -c 'print("bin/polygpu maps the AOT cache")'
fi
