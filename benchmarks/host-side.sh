#!/usr/bin/env bash
# The host side as a user meets it (issue 15's table, see benchmarks/README.md): the launcher's start-up
# (bin/polygpu -c 'print(1)', median of RUNS wall times), then benchmarks/python/host_side.py's rows (element access,
# bulk copies per host buffer kind, numpy).
#   benchmarks/host-side.sh [runs] [warm-up rounds] [timed rounds]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
times=()
for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    "$root/bin/polygpu" -c 'print(1)' >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
echo "bin/polygpu -c 'print(1)': ${median} s (median of $runs: ${times[*]})"
exec "$root/bin/polygpu" "$root/benchmarks/python/host_side.py" "${2:-10}" "${3:-5}"
