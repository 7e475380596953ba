#!/usr/bin/env bash
# Start-up times of bin/polygpu, for benchmarks/README.md ("Start-up"). Each configuration runs N times (default 5),
# interleaved: one run of each in turn, so that a machine whose load changes during the measurement weighs on every
# configuration alike. Prints, per configuration, the median wall-clock and CPU (user + system) seconds, and the
# load average before and after. Needs a build; the "AOT" rows need a fresh cache (scripts/aot-cache.sh).
#   benchmarks/startup/measure.sh [runs] [baseline-checkout]
# A baseline checkout (another build of polygpu) adds its print(1) and README example with the JIT, for ratios.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-5}"
baseline="${2:-}"
example="$root/benchmarks/startup/readme_example.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
warm="$work/warm-cache"

names=() commands=()
add() { names+=("$1"); commands+=("$2"); }
add "print(1), JIT (default)" "$root/bin/polygpu -c 'print(1)'"
add "print(1), no JIT, no AOT cache" "POLYGPU_AOT=0 $root/bin/polygpu --no-jit -c 'print(1)'"
add "print(1), no JIT, AOT cache" "$root/bin/polygpu --no-jit -c 'print(1)'"
add "README example, JIT, first run (empty kernel cache)" \
    "$root/bin/polygpu --polygpu.KernelCacheDirectory=\$(mktemp -d -p $work) $example"
add "README example, JIT, second run" "$root/bin/polygpu --polygpu.KernelCacheDirectory=$warm $example"
add "README example, no JIT, AOT cache, second run" \
    "$root/bin/polygpu --no-jit --polygpu.KernelCacheDirectory=$warm $example"
if [ -n "$baseline" ]; then
    add "baseline: print(1), JIT" "$baseline/bin/polygpu -c 'print(1)'"
    add "baseline: README example, JIT" "$baseline/bin/polygpu $example"
fi

"$root/bin/polygpu" --no-jit --polygpu.KernelCacheDirectory="$warm" "$example" >/dev/null 2>&1  # fills the cache
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
TIMEFORMAT='%R %U %S'
for ((r = 0; r < runs; r++)); do
    for i in "${!names[@]}"; do
        t="$( { time bash -c "${commands[$i]}" >"$work/out" 2>"$work/err"; } 2>&1 )" || {
            echo "failed: ${names[$i]}"; cat "$work/err"; exit 1; }
        echo "$t" >>"$work/times.$i"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-55s %10s %10s  %s\n' "configuration ($runs runs each)" "wall (s)" "CPU (s)" "wall of each run"
for i in "${!names[@]}"; do
    wall="$(cut -d' ' -f1 "$work/times.$i" | median)"
    cpu="$(awk '{print $2 + $3}' "$work/times.$i" | median)"
    printf '%-55s %10.2f %10.2f  %s\n' "${names[$i]}" "$wall" "$cpu" "$(cut -d' ' -f1 "$work/times.$i" | tr '\n' ' ')"
done
