# The JDK's ahead-of-time cache (JEP 483, 515) for bin/polygpu without the JIT: classes loaded and linked, and
# method profiles, recorded in a training run and mapped at start-up. Sourced by bin/polygpu (which uses the cache
# when it is fresh) and by scripts/aot-cache.sh (which creates it). Needs lib.sh first.
#
# The JVM archives classes from JAR files only, so the cache covers a copy of polygpu's target/classes packed into
# jars under target/aot/jars. It is used only while its key (the JDK, the JVM flags and the class path) matches and
# no class file or library jar is newer than it; otherwise bin/polygpu runs from target/classes as without it. The
# JIT needs the Graal compiler on --upgrade-module-path, with which the JVM maps no archive at all, so it runs
# without the cache.
# shellcheck shell=bash

polygpu_aot_dir="$polygpu_root/target/aot"
polygpu_aot_modules=(runtime policies emulator cuda mpi cluster demo truffle-lang)

# The launcher's class path over the jars in target/aot/jars, then the library jars in a fixed order.
polygpu_aot_classpath() {
    local cp="" m jar
    for m in "${polygpu_aot_modules[@]}"; do
        cp="$cp${cp:+:}$polygpu_aot_dir/jars/polygpu-$m.jar"
    done
    for jar in "$polygpu_root"/truffle-lang/target/lib/*.jar; do
        cp="$cp:$jar"
    done
    echo "$cp"
}

# What the cache was made for: the JDK (path and build), the launcher's JVM flags and the class path.
polygpu_aot_key() {
    local version
    version="$(grep -s '^JAVA_RUNTIME_VERSION=' "$JAVA_HOME/release" || true)"
    printf 'jdk %s %s\nflags %s\nclasspath %s\n' "$(readlink -f "$JAVA_HOME")" "$version" \
        "${polygpu_java_flags[*]}" "$(polygpu_aot_classpath)"
}

# Succeeds when the cache can be used as it is: its key matches and nothing it was made from changed since.
polygpu_aot_fresh() {
    local key="$polygpu_aot_dir/key" dirs=() m
    [ -f "$key" ] && [ -f "$polygpu_aot_dir/polygpu.aot" ] || return 1
    [ "$(cat "$key")" = "$(polygpu_aot_key)" ] || return 1
    for m in "${polygpu_aot_modules[@]}"; do
        [ -d "$polygpu_root/$m/target/classes" ] || return 1
        dirs+=("$polygpu_root/$m/target/classes")
    done
    [ -z "$(find "${dirs[@]}" "$polygpu_root/truffle-lang/target/lib" -newer "$polygpu_aot_dir/jars.stamp" \
        -print -quit 2>/dev/null)" ]
}

# Packs target/classes into jars and records the cache with a training run of examples/vector_squares.py on the
# emulator; the key is written last, so a launcher never takes a half-made cache. Prints what it did.
polygpu_aot_create() {
    local m out status=0
    mkdir -p "$polygpu_aot_dir/jars"
    rm -f "$polygpu_aot_dir/key" "$polygpu_aot_dir/polygpu.aot"
    touch "$polygpu_aot_dir/jars.stamp"  # before packing: a class written meanwhile counts as newer
    for m in "${polygpu_aot_modules[@]}"; do
        "$JAVA_HOME/bin/jar" --create --file "$polygpu_aot_dir/jars/polygpu-$m.jar" \
            -C "$polygpu_root/$m/target/classes" . || return 1
    done
    out="$polygpu_aot_dir/polygpu.$$.aot"
    (cd "$polygpu_root" && "$JAVA_HOME/bin/java" "${polygpu_java_flags[@]}" -Dpolygpu.home="$polygpu_root" \
        -Dpolyglot.engine.WarnInterpreterOnly=false -XX:AOTCacheOutput="$out" \
        -cp "$(polygpu_aot_classpath)" org.polygpu.lang.launcher.Launcher --polygpu.Backend=emulated \
        examples/vector_squares.py 20000 2 >"$polygpu_aot_dir/training.log" 2>&1) || status=$?
    if [ "$status" != 0 ] || [ ! -s "$out" ]; then
        rm -f "$out"
        echo "polygpu: the AOT cache could not be created (see $polygpu_aot_dir/training.log); bin/polygpu runs" \
            "without it." >&2
        return 1
    fi
    mv -f "$out" "$polygpu_aot_dir/polygpu.aot"
    polygpu_aot_key >"$polygpu_aot_dir/key.$$" && mv -f "$polygpu_aot_dir/key.$$" "$polygpu_aot_dir/key"
    echo "polygpu: AOT cache written to $polygpu_aot_dir/polygpu.aot ($(du -h "$polygpu_aot_dir/polygpu.aot" \
        | cut -f1)); bin/polygpu --no-jit uses it until a class or library changes." >&2
}
