#!/usr/bin/env bash
# Runs the policy study of benchmarks/README.md ("The policy study"): the paper's five benchmarks on 1, 2, 4 and 8
# emulated GPUs of v100x8, a100x8 and h100x8, under every device-selection policy and as the hand-optimized
# baseline, in sampled execution; writes DIR/study.csv and the plots speedup.png, vs-hand.png and policies.png.
# Arguments: [--quick] [--out DIR] [other options of org.polygpu.bench.study.Study, e.g. --benchmarks vec,mul, or
#   --memory-models explicit,managed to run ML and CG under both memory models too, into DIR/memory-models.csv]
#   --quick   v100x8 only, at smaller sizes (a few minutes); without it the full matrix (about half an hour)
#   --out DIR where the results go (default: target/study)
#   --nodes 1,2,4,8 with --topologies of node presets: the same on simulated clusters of that many nodes, all their
#             GPUs (docs/cluster-simulation.md); clusters such as 4xh100x8 may also be named in --topologies
# Builds polygpu first when its sources changed or the benchmarks are not built. Extra JVM flags: POLYGPU_JAVA_OPTS.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_maven
"$polygpu_root/scripts/install-nvrtc.sh"
polygpu_build_if_needed
if [ ! -d "$polygpu_root/benchmarks/target/classes/org/polygpu/bench/study" ] \
        || ! ls "$polygpu_root"/benchmarks/target/study-lib/jfreechart-*.jar >/dev/null 2>&1; then
    echo "Building the benchmarks..." >&2
    (cd "$polygpu_root" && mvn -B -q -DskipTests -pl benchmarks -am package)
fi
# Each run allocates and frees hundreds of MB of native memory (host replicas, device memories). glibc would return
# it to the system at every free and the next run would fault every page in again, which on this kind of VM costs
# more than the run itself; keeping it in the process lets the next run reuse the pages.
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-4294967296}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-68719476736}"
export POLYGPU_JAVA_OPTS="${POLYGPU_JAVA_OPTS:--Xmx4g}"
study_classpath="$polygpu_root/benchmarks/target/classes:$polygpu_root/benchmarks/target/study-lib/*"
export POLYGPU_CLASSPATH="$study_classpath${POLYGPU_CLASSPATH:+:$POLYGPU_CLASSPATH}"
exec "$polygpu_root/bin/polygpu" --java org.polygpu.bench.study.Study "$@"
