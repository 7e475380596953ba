#!/usr/bin/env bash
# The GPU pack's check (scripts/gpu-pack.sh copies this file into the pack as run.sh): with the pack's own Java
# runtime, runs polygpu's `info`, the `gpu`-tagged tests, `profile-interconnect`, `calibrate`, the five study programs
# on the CUDA backend (validated, with traces) and CudaLaunchBenchmark, each step bounded in time, and writes
# report.md plus the raw files to $OUT (or results/ beside this script). Without a GPU every step still runs or says
# that no GPU was found, and the report is written. Exits 0 when every step that ran passed.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="${OUT:-$here/results}"
mkdir -p "$results"
report="$results/report.md"
java="$here/jre/bin/java"
cp="$(ls "$here"/lib/*.jar | grep -v -e junit-platform-console -e polygpu-gpu-tests | tr '\n' ':')"
cp="${cp%:}"
flags=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dpolygpu.corpus="$here/corpus"
    -Dpolyglot.engine.WarnInterpreterOnly=false)
jit="$(ls "$here"/jit/*.jar 2>/dev/null | tr '\n' ':')"
if [ -n "$jit" ] && "$java" -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path="${jit%:}" \
        -version >/dev/null 2>&1; then
    flags+=(-XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path="${jit%:}")
    compiler="Graal JIT (Truffle compiles)"
else
    compiler="no JIT compiler for Truffle (interpreted)"
fi
launcher=("$java" "${flags[@]}" -cp "$cp" org.polygpu.lang.launcher.Launcher)
failed=0
rows=()

# NVRTC: the CUDA toolkit's, else any libnvrtc.so.N found on the machine (pip wheels of PyTorch or CuPy ship one).
if [ -z "${POLYGPU_NVRTC:-}" ] && ! ls /usr/local/cuda/lib64/libnvrtc.so* >/dev/null 2>&1; then
    found="$(find / -xdev -name 'libnvrtc.so.[0-9]*' -not -name '*alt*' 2>/dev/null | sort -V | tail -1)"
    [ -n "$found" ] && export POLYGPU_NVRTC="$found"
fi

# Runs one step: NAME SECONDS RAW_FILE COMMAND...; records its exit status and time.
step() {
    local name="$1" limit="$2" raw="$3"
    shift 3
    local start status
    start=$(date +%s)
    timeout "$limit" "$@" > "$results/$raw" 2>&1
    status=$?
    local took=$(( $(date +%s) - start ))
    if [ "$status" -eq 0 ]; then
        rows+=("| $name | passed | ${took} s | $raw |")
    else
        [ "$status" -eq 124 ] && echo "(stopped after $limit s)" >> "$results/$raw"
        rows+=("| $name | FAILED (exit $status) | ${took} s | $raw |")
        failed=1
    fi
    echo "$name: exit $status in ${took} s" >&2
}

skip() {
    rows+=("| $1 | $2 | - | - |")
    echo "$1: $2" >&2
}

{ nvidia-smi 2>&1 || true; } > "$results/nvidia-smi.txt"
step info 60 info.txt "${launcher[@]}" info
gpu=0
grep -q "cuda: usable" "$results/info.txt" && gpu=1
no_gpu="no GPU was found ($(grep -m1 "^ *cuda:" "$results/info.txt" | sed 's/^ *//; s/|/\//g'))"
# The language, the Java runtime and the compiler of the pack work together: a small program on the emulator.
step "program vec on the emulator (pack check)" 90 pack-check.txt "$java" "${flags[@]}" -cp "$cp" \
    org.polygpu.bench.programs.Vec --polygpu.Backend=emulated 65536 4

if [ "$gpu" = 1 ]; then
    step "gpu tests" 120 gpu-tests.txt "$java" "${flags[@]}" -jar "$here/lib/junit-platform-console-standalone.jar" \
        execute --class-path "$cp:$here/lib/polygpu-gpu-tests.jar" --select-package org.polygpu.gpu \
        --include-tag gpu --details=tree --disable-banner --disable-ansi-colors --fail-if-no-tests \
        --reports-dir "$results/junit"
    step profile-interconnect 120 profile.txt "${launcher[@]}" --polygpu.Backend=cuda profile-interconnect \
        --out "$results/bandwidth.csv"
    before=$failed
    step calibrate 120 calibrate.txt "${launcher[@]}" --polygpu.Backend=cuda calibrate --out "$results/device-model.json"
    # A launcher without the calibrate command takes `calibrate` for a script it cannot run: not a failure.
    if grep -qiE "cannot tell the language of 'calibrate'|unknown (sub)?command" "$results/calibrate.txt"; then
        unset 'rows[${#rows[@]}-1]'
        skip calibrate "not available in this build"
        failed=$before
    fi
    for p in "vec Vec 8388608" "bs BlackScholes 8388608" "ml MlEnsemble 262144" "cg ConjugateGradient 2048" \
             "mul MatrixVector 4096"; do
        set -- $p
        step "program $1 (size $3)" 90 "prog-$1.txt" "$java" "${flags[@]}" -cp "$cp" \
            "org.polygpu.bench.programs.$2" --polygpu.Backend=cuda --polygpu.ExportTrace="$results/trace-$1.json" "$3"
    done
    step CudaLaunchBenchmark 150 jmh.txt "$java" "${flags[@]}" -cp "$cp" org.openjdk.jmh.Main CudaLaunchBenchmark \
        -wi 2 -w 1s -i 3 -r 1s -f 1 -rf json -rff "$results/jmh.json"
    # JMH exits 0 when a benchmark's set-up throws; it reports the failure in its output.
    if grep -q "<failure>" "$results/jmh.txt"; then
        rows[${#rows[@]}-1]="| CudaLaunchBenchmark | FAILED (see jmh.txt) | - | jmh.txt |"
        failed=1
    fi
else
    for s in "gpu tests" profile-interconnect calibrate "program vec" "program bs" "program ml" "program cg" \
             "program mul" CudaLaunchBenchmark; do
        skip "$s" "no GPU was found"
    done
fi

# Copies of 1 MiB and more in the programs' traces: effective bandwidth (bytes / GPU time), median and best, against
# what profile-interconnect measured from the host to GPU 0.
copy_bandwidth() {
    cat "$results"/trace-*.json 2>/dev/null | grep '"cat":"copy"' | grep '"source":"host"' \
        | sed -n 's/.*"dur":\([0-9.]*\).*"bytes":\([0-9]*\).*/\2 \1/p' \
        | awk '$1 >= 1048576 && $2 > 0 { print $1 / ($2 * 1000) }' | sort -g \
        | awk '{ v[NR] = $1 } END { if (NR) printf "%d host-to-device copies of 1 MiB or more: median %.1f GB/s, best %.1f GB/s", NR, v[int((NR + 1) / 2)], v[NR]; else printf "no host-to-device copy of 1 MiB or more in the traces" }'
    local profiled
    profiled="$(awk -F, '$1 == "-1" && $2 == "0" { print $3 }' "$results/bandwidth.csv" 2>/dev/null)"
    [ -n "$profiled" ] && printf "; profile-interconnect: %s GB/s host to GPU 0" "$profiled"
    echo
}

# Per trace, each kernel's first launch against the median of its later launches (GPU time from the trace).
first_launches() {
    local t
    for t in "$results"/trace-*.json; do
        [ -f "$t" ] || continue
        grep '"cat":"kernel"' "$t" | sed -n 's/.*"name":"\([^"]*\)".*"dur":\([0-9.]*\).*/\1 \2/p' | awk -v f="$(basename "$t")" '
            { n[$1]++; if (n[$1] == 1) first[$1] = $2; else later[$1, n[$1]] = $2 }
            END { for (k in n) if (n[k] > 1) {
                    m = 0; for (i = 2; i <= n[k]; i++) a[++m] = later[k, i]
                    for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
                    med = a[int((m + 1) / 2)]; split("", a)
                    printf "| %s | %s | %.1f | %.1f | %.1fx |\n", f, k, first[k], med, first[k] / (med > 0 ? med : 1) } }'
    done
}

{
    echo "# polygpu GPU pack report"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(uname -srm), $(nproc) cores"
    if [ "$gpu" = 1 ]; then
        echo "- GPU: $(nvidia-smi -L 2>/dev/null | head -1)"
    else
        echo "- GPU: $no_gpu"
    fi
    echo "- Java: $("$java" -version 2>&1 | head -1); $compiler"
    echo "- CUDA_MODULE_LOADING: ${CUDA_MODULE_LOADING:-unset (polygpu asks for EAGER)}"
    echo
    echo "Pack check on the emulator: $(grep -hE " (OK|FAIL)$" "$results/pack-check.txt" 2>/dev/null)"
    echo
    echo "| step | result | time | raw file |"
    echo "|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    if [ "$gpu" = 1 ]; then
        echo
        echo "## Study programs (verdict; makespan, kernels' and copies' GPU time from the trace)"
        echo
        echo '```text'
        cat "$results"/prog-*.txt 2>/dev/null | grep -E " (OK|FAIL)$|^makespan"
        echo '```'
        echo
        echo "## CudaLaunchBenchmark (ns per launch; contextLaunch - backendLaunch is polygpu's own cost)"
        echo
        echo '```text'
        grep -E "^(Benchmark +Mode|CudaLaunchBenchmark)" "$results/jmh.txt" 2>/dev/null
        echo '```'
        echo
        echo "## Host copies"
        echo
        copy_bandwidth
        echo
        echo "## First launch of each kernel against its later launches (GPU time, us)"
        echo
        echo "| trace | kernel | first | median of the rest | ratio |"
        echo "|---|---|---|---|---|"
        first_launches
    fi
} > "$report"
cat "$report"
echo "report: $report" >&2
exit "$failed"
