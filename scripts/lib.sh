# Shared by the scripts: finds JDK 25 and Maven, builds the reactor when sources changed. Only the set-up scripts
# (demo.sh, test.sh) install anything, through polygpu_install_maven.
# shellcheck shell=bash

polygpu_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Whether $1 is a JDK 25 or later: its release file says so (no JVM started), or else its java -version does.
polygpu_is_jdk25() {
    grep -qE '^JAVA_VERSION="(2[5-9]|[3-9][0-9])' "$1/release" 2>/dev/null \
        || "$1/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])'
}

polygpu_java_home() {
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && polygpu_is_jdk25 "$JAVA_HOME"; then
        return 0
    fi
    local candidate
    for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25* /usr/lib/jvm/*-25* /opt/java/openjdk; do
        if [ -x "$candidate/bin/java" ] && "$candidate/bin/java" -version 2>&1 | grep -qE 'version "25'; then
            export JAVA_HOME="$candidate"
            return 0
        fi
    done
    echo "polygpu needs a JDK 25 (Temurin 25 was looked for under /usr/lib/jvm); set JAVA_HOME to one." >&2
    return 1
}

# Checks that Maven is on the PATH, installing nothing; says which command sets it up when it is missing.
polygpu_maven() {
    # Maven's own libraries use sun.misc.Unsafe; JDK 25 warns about it unless told this is allowed.
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
    command -v mvn >/dev/null 2>&1 && return 0
    echo "polygpu needs Maven (mvn) on the PATH to build; scripts/demo.sh or scripts/test.sh installs it (the" \
        "apt package maven), or install it yourself." >&2
    return 1
}

# For the set-up scripts only: installs the apt package maven when mvn is missing, saying so.
polygpu_install_maven() {
    if ! command -v mvn >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
        echo "Maven is missing; installing the apt package maven with apt-get." >&2
        apt-get update -qq && apt-get install -y -qq maven >/dev/null
    fi
    polygpu_maven
}

# For the set-up scripts only: installs Open MPI (the apt packages openmpi-bin and libopenmpi-dev) when mpirun is
# missing, saying so; the mpi module's tests run real MPI jobs with it.
polygpu_install_mpi() {
    if ! command -v mpirun >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
        echo "Open MPI is missing; installing the apt packages openmpi-bin and libopenmpi-dev with apt-get." >&2
        apt-get update -qq && apt-get install -y -qq openmpi-bin libopenmpi-dev >/dev/null
    fi
    command -v mpirun >/dev/null 2>&1 || echo "mpirun not found: the MPI tests will be skipped." >&2
}

# Builds and installs every module unless the build stamp is newer than every source and pom.
polygpu_build_if_needed() {
    local stamp="$polygpu_root/target/.polygpu-build-stamp"
    if [ -f "$stamp" ] && [ -z "$(find "$polygpu_root" -path "$polygpu_root/target" -prune -o \
            \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$stamp" -print -quit)" ]; then
        return 0
    fi
    echo "Building polygpu..." >&2
    (cd "$polygpu_root" && mvn -B -q -DskipTests install) || return 1
    mkdir -p "$polygpu_root/target" && touch "$stamp"
}

# The class path of the built modules (they have no third-party run-time dependencies).
polygpu_classpath() {
    local cp="" m
    for m in runtime policies emulator cuda mpi cluster demo; do
        cp="$cp${cp:+:}$polygpu_root/$m/target/classes"
    done
    echo "$cp"
}

polygpu_java_flags=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)
