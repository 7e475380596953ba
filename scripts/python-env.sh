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

# Succeeds when the environment in folder $1 is complete for this GraalPy and numpy. Its bin/python links to the
# bin/graalpy of the checkout that made it; bin/polygpu only names that path (GraalPy finds the environment's
# pyvenv.cfg beside it), so another checkout of the same GraalPy can use the environment after that one is gone,
# and polygpu_python_env_link points the link at the running checkout for programs that start sys.executable.
polygpu_python_env_ready() {
    [ -n "$1" ] && [ -f "$1/pyvenv.cfg" ] && [ -f "$1/.polygpu-stamp" ] \
        && [ "$(cat "$1/.polygpu-stamp")" = "$(polygpu_python_env_key)" ]
}

# Points the environment's python links at this checkout's bin/graalpy when they no longer lead to a GraalPy
# (the checkout that made the environment was removed). Quiet when the folder cannot be written.
polygpu_python_env_link() {
    local link
    for link in "$1/bin/graalpy" "$1/bin/python" "$1/bin/python3"; do
        if [ -L "$link" ] && [ ! -e "$link" ]; then
            ln -sfn "$polygpu_root/bin/graalpy" "$link" 2>/dev/null || true
        fi
    done
}
