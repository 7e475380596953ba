#!/usr/bin/env bash
# Packs what the GPU tests need into one folder that can travel to a GPU machine with no registry access and maybe
# no JDK (the pack must stay under 64 MiB to travel): a jlinked Java 25 runtime image, the polygpu jars, the GPU tests
# compiled into a jar, the JUnit console launcher and the kernel corpus, plus run-gpu-tests.sh, which runs the tests
# tagged `gpu` and then the interconnect profiler there.
#
#   scripts/gpu-pack.sh [OUT_DIR]        # default: target/gpu-pack
#   OUT_DIR/run-gpu-tests.sh             # on the GPU machine; writes OUT_DIR/results/ (or $OUT when set)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_maven

# The JUnit console launcher matching the project's JUnit (junit-bom 5.11.4 = platform 1.11.4).
JUNIT_CONSOLE="org.junit.platform:junit-platform-console-standalone:1.11.4"
LIMIT_BYTES=$((64 * 1024 * 1024))

out="${1:-$polygpu_root/target/gpu-pack}"
work="$polygpu_root/target/gpu-pack-build"
cd "$polygpu_root"

echo "Building runtime, policies, the CUDA backend and the launcher's commands..." >&2
mvn -B -q -ntp -pl runtime,policies,cuda,truffle-lang -am package -DskipTests

rm -rf "$out" "$work"
mkdir -p "$out/lib" "$work/classes"
# truffle-lang's jar holds the info and profile-interconnect commands, which run without its guest language.
cp runtime/target/polygpu-runtime-*.jar policies/target/polygpu-policies-*.jar cuda/target/polygpu-cuda-*.jar \
    truffle-lang/target/polygpu-truffle-lang-*.jar "$out/lib/"

echo "Fetching the JUnit console launcher ($JUNIT_CONSOLE)..." >&2
mvn -B -q -ntp -N dependency:copy -Dartifact="$JUNIT_CONSOLE" -DoutputDirectory="$out/lib" -Dmdep.stripVersion=true

# The GPU tests use only the runtime, the CUDA backend and JUnit's API, so they are compiled here on their own rather
# than with the whole test module (which also pulls in the guest languages).
echo "Compiling the GPU tests..." >&2
test_cp="$out/lib/polygpu-runtime-0.1.0-SNAPSHOT.jar:$out/lib/polygpu-cuda-0.1.0-SNAPSHOT.jar"
"$JAVA_HOME/bin/javac" --release 25 -nowarn -d "$work/classes" \
    -cp "$test_cp:$out/lib/junit-platform-console-standalone.jar" \
    test/src/test/java/org/polygpu/gpu/*.java
"$JAVA_HOME/bin/jar" --create --file "$out/lib/polygpu-gpu-tests.jar" -C "$work/classes" .

cp -r emulator/src/test/resources/org/polygpu/emulator/corpus "$out/corpus"

echo "Linking a Java runtime image..." >&2
modules="$("$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 "$out"/lib/*.jar)"
# jdk.zipfs: JUnit scans the test jar as a file system.
"$JAVA_HOME/bin/jlink" --add-modules "$modules,java.logging,jdk.unsupported,jdk.zipfs" --strip-debug --no-man-pages \
    --no-header-files --compress=zip-9 --output "$out/jre"

cat > "$out/run-gpu-tests.sh" <<'RUN'
#!/usr/bin/env bash
# Runs polygpu's GPU tests (JUnit tag `gpu`) and the interconnect profiler with the bundled Java runtime.
# Results go to $OUT when set (an output folder the caller collects), else to results/ beside this script.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="${OUT:-$here/results}"
mkdir -p "$results"
java="$here/jre/bin/java"
cp="$here/lib/polygpu-runtime-0.1.0-SNAPSHOT.jar:$here/lib/polygpu-policies-0.1.0-SNAPSHOT.jar"
cp="$cp:$here/lib/polygpu-cuda-0.1.0-SNAPSHOT.jar:$here/lib/polygpu-truffle-lang-0.1.0-SNAPSHOT.jar"
flags=(--enable-native-access=ALL-UNNAMED -Dpolygpu.corpus="$here/corpus")

# NVRTC: the CUDA toolkit's, else any libnvrtc.so.N found on the machine (pip wheels of PyTorch or CuPy ship one).
if [ -z "${POLYGPU_NVRTC:-}" ] && ! ls /usr/local/cuda/lib64/libnvrtc.so* >/dev/null 2>&1; then
    found="$(find / -xdev -name 'libnvrtc.so.[0-9]*' -not -name '*alt*' 2>/dev/null | sort -V | tail -1)"
    [ -n "$found" ] && export POLYGPU_NVRTC="$found"
fi

{ nvidia-smi 2>&1 || true; } > "$results/nvidia-smi.txt"
"$java" "${flags[@]}" -cp "$cp" org.polygpu.lang.launcher.commands.InfoCommand --polygpu.Backend=cuda \
    > "$results/info.txt" 2>&1
"$java" "${flags[@]}" -jar "$here/lib/junit-platform-console-standalone.jar" execute \
    --class-path "$cp:$here/lib/polygpu-gpu-tests.jar" --select-package org.polygpu.gpu --include-tag gpu \
    --details=tree --disable-banner --disable-ansi-colors --fail-if-no-tests --reports-dir "$results/junit" 2>&1 \
    | tee "$results/gpu-tests.txt"
status=${PIPESTATUS[0]}
"$java" "${flags[@]}" -cp "$cp" org.polygpu.lang.launcher.commands.ProfileInterconnectCommand --polygpu.Backend=cuda \
    --out "$results/bandwidth.csv" > "$results/profile.txt" 2> "$results/profile-progress.txt"
profile=$?
cat "$results/info.txt" "$results/profile.txt"
echo "gpu tests: exit $status; profiler: exit $profile; results in $results"
[ "$status" -eq 0 ] && [ "$profile" -eq 0 ]
RUN
chmod +x "$out/run-gpu-tests.sh"
rm -rf "$work"

bytes="$(du -sb "$out" | cut -f1)"
echo "gpu pack: $out, $((bytes / 1024 / 1024)) MiB ($bytes bytes; the limit is $((LIMIT_BYTES / 1024 / 1024)) MiB)" >&2
if [ "$bytes" -ge "$LIMIT_BYTES" ]; then
    echo "the pack is too large to travel" >&2
    exit 1
fi
