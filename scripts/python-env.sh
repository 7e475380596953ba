# The GraalPy virtual environment with numpy that bin/polygpu's Python uses when it exists: made once per machine by
# scripts/numpy.sh, outside the repository, in a folder named after the GraalPy and numpy versions, so that every
# checkout of the same GraalPy shares it and a new GraalPy gets a new one. Sourced by bin/polygpu and
# scripts/numpy.sh; needs lib.sh first.
#
# POLYGPU_PYTHON_ENV names another folder; set to the empty string, bin/polygpu uses no environment.
# shellcheck shell=bash

# numpy's version: GraalPy 25.0's pip carries its patch for numpy 2.0.0 to 2.2.x (its patches/metadata.toml).
polygpu_numpy_version=2.2.6

# GraalPy's version: that of the python-language jar bin/polygpu runs, or nothing before a build.
polygpu_graalpy_version() {
    local jar
    for jar in "$polygpu_root"/truffle-lang/target/lib/python-language-*.jar; do
        [ -f "$jar" ] || continue
        jar="${jar##*/python-language-}"
        echo "${jar%.jar}"
        return 0
    done
}

# The environment's folder (empty when POLYGPU_PYTHON_ENV is set empty or polygpu is not built).
polygpu_python_env() {
    if [ -n "${POLYGPU_PYTHON_ENV+set}" ]; then
        echo "$POLYGPU_PYTHON_ENV"
        return 0
    fi
    local graalpy
    graalpy="$(polygpu_graalpy_version)"
    [ -n "$graalpy" ] || return 0
    echo "${XDG_CACHE_HOME:-$HOME/.cache}/polygpu/graalpy-$graalpy-numpy-$polygpu_numpy_version"
}

# What the stamp of a finished environment says: the versions it was made for.
polygpu_python_env_key() {
    echo "graalpy $(polygpu_graalpy_version) numpy $polygpu_numpy_version"
}

# Succeeds when the environment in folder $1 is complete for this GraalPy and numpy, and its python still runs
# (its bin/python links to the bin/graalpy of the checkout that made it).
polygpu_python_env_ready() {
    [ -n "$1" ] && [ -x "$1/bin/python" ] && [ -f "$1/.polygpu-stamp" ] \
        && [ "$(cat "$1/.polygpu-stamp")" = "$(polygpu_python_env_key)" ]
}
