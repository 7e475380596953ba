#!/usr/bin/env bash
# Measures the cluster's paths under Cluster=mpi on this machine: launches on another rank's device (batched and
# not) and copies between two ranks, against MPI's own point-to-point bandwidth (ClusterBenchmark, 2 ranks of one
# emulated GPU each). Builds the modules it needs first; needs mpirun (Open MPI). Prints a table.
#   scripts/cluster-bench.sh [--direct-first]   (copies staged then direct between the ranks, or the other way round)
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"
polygpu_java_home
polygpu_maven
command -v mpirun >/dev/null 2>&1 || { echo "cluster-bench.sh needs mpirun (apt packages openmpi-bin libopenmpi-dev)" >&2; exit 1; }
(cd "$polygpu_root" && mvn -B -q -pl cluster,emulator -am test-compile)
# Open MPI refuses to run as root unless told it is meant (containers run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun --oversubscribe -np 2 "$JAVA_HOME/bin/java" "${polygpu_java_flags[@]}" -Dpolygpu.home="$polygpu_root" \
    -cp "$(polygpu_classpath):$polygpu_root/cluster/target/test-classes" org.polygpu.cluster.ClusterBenchmark "$@"
