#!/usr/bin/env bash
# Start-up of a polygpu Python program phase by phase (org.polygpu.bench.StartupPhases), for benchmarks/README.md:
# each configuration runs N times (default 5), interleaved, and the median of each phase is printed in milliseconds.
# Needs the benchmarks module built (mvn -B -o -q verify -pl benchmarks -am -DskipTests) and, for the AOT column, a
# fresh cache (scripts/aot-cache.sh).
#   benchmarks/startup/phases.sh [runs]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
export POLYGPU_CLASSPATH="$root/benchmarks/target/classes"
names=("JIT, kernel cache empty" "JIT, kernel cache warm" "no JIT, no AOT" "no JIT, AOT cache")
phases() {  # configuration index
    local cache="$work/warm" flags=() env=()
    case "$1" in
        0) cache="$(mktemp -d -p "$work")" ;;
        2) flags=(--no-jit); env=(POLYGPU_AOT=0) ;;
        3) flags=(--no-jit) ;;
    esac
    env "${env[@]}" POLYGPU_LAUNCHED_NS="$(date +%s%N)" "$root/bin/polygpu" "${flags[@]}" --java \
        org.polygpu.bench.StartupPhases --polygpu.Backend=emulated --polygpu.KernelCacheDirectory="$cache"
}
phases 3 >/dev/null  # fills the warm kernel cache
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < runs; r++)); do
    for i in "${!names[@]}"; do
        phases "$i" | grep -E '^[A-Za-z(].* +[0-9.]+$' >"$work/run.$i.$r"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '| phase (median ms of %d runs) |' "$runs"
printf ' %s |' "${names[@]}"
printf '\n|---|'
printf -- '---:|%.0s' "${names[@]}"
printf '\n'
while read -r phase; do
    printf '| %s |' "$phase"
    for i in "${!names[@]}"; do
        printf ' %s |' "$(cat "$work"/run."$i".* | grep -F "$phase " | awk '{print $NF}' | median)"
    done
    printf '\n'
done < <(sed -E 's/ +[0-9.]+$//' "$work/run.0.0")
printf '| total |'
for i in "${!names[@]}"; do
    for ((r = 0; r < runs; r++)); do awk '{s += $NF} END {print s}' "$work/run.$i.$r"; done | median | tr '\n' ' '
    printf '|'
done
printf '\n'
