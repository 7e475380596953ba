#!/usr/bin/env bash
# Compares the emulator with measurements of a real GPU (docs/emulator-model.md, "Fidelity"): runs the kernels,
# concurrent launches and copies of a measurement directory on one emulated GPU of the matching device model and
# prints, per row, real vs emulated, then the geometric-mean and worst errors of the kernels, the concurrency and
# the copies.
# Arguments: [MEASUREMENTS_DIR [MODEL]]
#   MEASUREMENTS_DIR  kernels.csv, copies.csv and concurrency.csv (default: ../shared/calibration/h100 when it
#                     exists, else calibration/h100 of the repository)
#   MODEL             a preset (v100, a100, h100) or a device-model file (default: the directory's name)
# Builds the emulator and the benchmarks first when their sources changed (no install). Needs NVRTC
# (scripts/install-nvrtc.sh) to compile the kernels.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_maven
cd "$polygpu_root"
dir="${1:-}"
if [ -z "$dir" ]; then
    if [ -d ../shared/calibration/h100 ]; then dir=../shared/calibration/h100; else dir=calibration/h100; fi
fi
marker=benchmarks/target/classes/org/polygpu/bench/fidelity/Fidelity.class
if [ ! -f "$marker" ] || [ -n "$(find runtime emulator benchmarks -path '*/src/main/*' -newer "$marker" -print -quit)" ]; then
    echo "Building the emulator and the benchmarks..." >&2
    mvn -B -q -DskipTests -pl benchmarks -am compile
fi
exec "$JAVA_HOME/bin/java" "${polygpu_java_flags[@]}" -cp "$(polygpu_classpath):benchmarks/target/classes" \
    org.polygpu.bench.fidelity.Fidelity "$dir" ${2:+"$2"}
