#!/usr/bin/env bash
# Packs polygpu's check of a real GPU into one folder that can travel to a GPU machine with no JDK and no registry
# access (it must stay under 64 MiB): a jlinked Java 25 runtime, the Graal compiler for the Truffle JIT, polygpu's,
# Truffle's and the polyglot API's jars, JUnit's console launcher with the GPU tests, JMH with CudaLaunchBenchmark, the
# five study programs (Java) and the kernel corpus, compressed into pack.tar.gz (pack.tar.xz when gzip is not small
# enough), beside run.sh, which unpacks it and runs the check (docs/gpu-pack.md says what it runs and reports).
#
#   scripts/gpu-pack.sh [OUT_DIR]        # default: target/gpu-pack
#   OUT_DIR/run.sh                       # there: writes report.md and the raw files to $OUT, or OUT_DIR/results
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_maven

# The JUnit console launcher matching the project's JUnit (junit-bom 5.11.4 = platform 1.11.4).
JUNIT_CONSOLE="org.junit.platform:junit-platform-console-standalone:1.11.4"
LIMIT_BYTES=$((64 * 1024 * 1024))
# The Java modules the pack runs with, checked on an H100 (docs/gpu-pack.md): the polyglot API and
# Truffle need java.logging, jdk.unsupported, java.management (+ jdk.management); JUnit scans its jar as a file system
# (jdk.zipfs) and writes XML reports (java.xml); the Graal JIT is upgraded into jdk.graal.compiler over JVMCI. jdeps
# cannot find these itself: the jars are modules that require the polyglot API, which it does not resolve.
MODULES="java.base,java.logging,jdk.unsupported,jdk.zipfs,java.management,jdk.management,java.xml"
MODULES="$MODULES,jdk.internal.vm.ci,jdk.graal.compiler"

out="${1:-$polygpu_root/target/gpu-pack}"
work="$polygpu_root/target/gpu-pack-build"
pack="$work/pack"
cd "$polygpu_root"

echo "Building polygpu, its language and the benchmarks..." >&2
mvn -B -q -ntp -pl runtime,policies,emulator,cuda,truffle-lang,benchmarks -am package -DskipTests

rm -rf "$out" "$work"
mkdir -p "$out" "$pack/lib" "$pack/jit" "$work/classes"
for m in runtime policies emulator cuda truffle-lang benchmarks; do
    cp "$m"/target/polygpu-"$m"-*[0-9T].jar "$pack/lib/"
done
# Truffle and the polyglot API (the guest languages GraalPy and GraalJS stay behind: the programs are Java).
for jar in polyglot truffle-api truffle-runtime truffle-compiler collections nativeimage word jniutils; do
    cp truffle-lang/target/lib/"$jar"-[0-9]*.jar "$pack/lib/"
done
cp truffle-lang/target/jit/*.jar "$pack/jit/"

echo "Fetching JMH's run-time libraries and the JUnit console launcher..." >&2
mvn -B -q -ntp -pl benchmarks dependency:copy-dependencies -DincludeArtifactIds=jmh-core,jopt-simple,commons-math3 \
    -DoutputDirectory="$pack/lib"
mvn -B -q -ntp -N dependency:copy -Dartifact="$JUNIT_CONSOLE" -DoutputDirectory="$pack/lib" -Dmdep.stripVersion=true

# The GPU tests use only the runtime, the CUDA backend and JUnit's API, so they are compiled here on their own rather
# than with the whole test module (which also pulls in the guest languages).
echo "Compiling the GPU tests..." >&2
"$JAVA_HOME/bin/javac" --release 25 -nowarn -d "$work/classes" \
    -cp "$(ls "$pack"/lib/polygpu-*.jar | tr '\n' ':')$pack/lib/junit-platform-console-standalone.jar" \
    test/src/test/java/org/polygpu/gpu/*.java
"$JAVA_HOME/bin/jar" --create --file "$pack/lib/polygpu-gpu-tests.jar" -C "$work/classes" .
cp -r emulator/src/test/resources/org/polygpu/emulator/corpus "$pack/corpus"

echo "Linking a Java runtime image ($MODULES)..." >&2
"$JAVA_HOME/bin/jlink" --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files \
    --output "$pack/jre"
strip --strip-unneeded "$pack/jre/lib/server/libjvm.so" 2>/dev/null || true
cp scripts/gpu-pack-run.sh "$pack/run.sh"
chmod +x "$pack/run.sh"

echo "Compressing..." >&2
tar -C "$pack" -czf "$out/pack.tar.gz" .
if [ "$(stat -c %s "$out/pack.tar.gz")" -ge $((LIMIT_BYTES - 1024 * 1024)) ] && command -v xz >/dev/null; then
    rm "$out/pack.tar.gz"
    tar -C "$pack" -cf - . | xz -T0 -6 > "$out/pack.tar.xz"
fi
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Unpacks polygpu's GPU pack into a temporary folder (removed afterwards, so this folder stays small enough to travel)
# and runs its check: report.md and the raw files go to $OUT, or to results/ beside this script. See docs/gpu-pack.md
# in polygpu's sources.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
unpacked="$(mktemp -d "${TMPDIR:-/tmp}/polygpu-gpu-pack.XXXXXX")"
trap 'rm -rf "$unpacked"' EXIT
if [ -f "$here/pack.tar.xz" ]; then
    xz -dc "$here/pack.tar.xz" | tar -C "$unpacked" -xf -
else
    tar -C "$unpacked" -xzf "$here/pack.tar.gz"
fi
export OUT="${OUT:-$here/results}"
"$unpacked/run.sh" "$@"
RUN
chmod +x "$out/run.sh"

unpacked_bytes="$(du -sb "$pack" | cut -f1)"
rm -rf "$work"
bytes="$(du -sb "$out" | cut -f1)"
echo "gpu pack: $out, $((bytes / 1024 / 1024)) MiB ($bytes bytes; unpacked $((unpacked_bytes / 1024 / 1024)) MiB;" \
    "the limit is $((LIMIT_BYTES / 1024 / 1024)) MiB)" >&2
if [ "$bytes" -ge "$LIMIT_BYTES" ]; then
    echo "the pack is too large to travel" >&2
    exit 1
fi
