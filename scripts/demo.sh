#!/usr/bin/env bash
# Runs the polygpu demo: a multi-kernel workload scheduled over 4 emulated V100 GPUs (no GPU needed).
# Prints where each computation ran and the simulated makespan. Extra arguments go to the demo (--help lists them).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_maven
"$polygpu_root/scripts/install-nvrtc.sh"
polygpu_build_if_needed
exec "$JAVA_HOME/bin/java" "${polygpu_java_flags[@]}" -cp "$(polygpu_classpath)" org.polygpu.demo.MultiGpuDemo "$@"
