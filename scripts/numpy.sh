#!/usr/bin/env bash
# Installs numpy into the GraalPy virtual environment bin/polygpu uses (scripts/python-env.sh says where), once per
# machine: does nothing when the environment is complete for this GraalPy and numpy version, unless --force.
#   scripts/numpy.sh [--force]
# PyPI has no numpy wheel for GraalPy, so GraalPy's pip builds numpy from its source distribution, applying GraalPy's
# own patch to it: this needs a C and a C++ compiler and takes a long time (see docs/development.md, numpy); the
# build's log is kept beside the environment. Builds polygpu first when needed (bin/graalpy runs GraalPy's launcher
# from the build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$polygpu_root/scripts/python-env.sh"

force=0
case "${1:-}" in
    --force) force=1 ;;
    "") ;;
    *) echo "usage: scripts/numpy.sh [--force]" >&2; exit 2 ;;
esac

polygpu_java_home
polygpu_install_maven
if [ ! -d "$polygpu_root/truffle-lang/target/graalpy" ] || [ ! -d "$polygpu_root/truffle-lang/target/lib" ]; then
    polygpu_build_if_needed
fi
env_dir="$(polygpu_python_env)"
if [ -z "$env_dir" ]; then
    echo "scripts/numpy.sh: POLYGPU_PYTHON_ENV is set empty, which means no environment; unset it." >&2
    exit 2
fi
for tool in cc c++; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "scripts/numpy.sh: building numpy needs a C and a C++ compiler; '$tool' is missing" \
            "(e.g. apt-get install build-essential)." >&2
        exit 1
    fi
done

mkdir -p "$(dirname "$env_dir")"
exec 9>"$env_dir.lock"
if command -v flock >/dev/null 2>&1; then
    flock 9  # another run on this machine finishes first; then there is nothing left to do
fi
if [ "$force" = 0 ] && polygpu_python_env_ready "$env_dir"; then
    polygpu_python_env_link "$env_dir"
    echo "numpy $polygpu_numpy_version is installed for GraalPy $(polygpu_graalpy_version) in $env_dir"
    exit 0
fi

log="$env_dir.log"
rm -rf "$env_dir"
echo "Creating a GraalPy $(polygpu_graalpy_version) virtual environment in $env_dir and building numpy" \
    "$polygpu_numpy_version from source into it (log: $log); this takes long, see docs/development.md." >&2
start=$SECONDS
{
    "$polygpu_root/bin/graalpy" -m venv "$env_dir"
    # GraalPy's pip looks for its prebuilt wheels on GraalVM's own index and for newer patches on GitHub; numpy is
    # built here from PyPI's source distribution with the patches GraalPy carries, so neither is asked (each would
    # retry where only the package registries are reachable).
    # The build runs numpy's code generators as short GraalPy processes (several at a time, one per ninja job):
    # without the JIT compiler each takes about half the CPU time (10 s against 18 s for a bare import of four
    # modules on 2 loaded cores), and nothing in the build runs long enough for compiled code to pay back.
    PIP_EXTRA_INDEX_URL="${PIP_EXTRA_INDEX_URL:-${PIP_INDEX_URL:-https://pypi.org/simple}}" \
        PIP_GRAALPY_PATCHES_URL="${PIP_GRAALPY_PATCHES_URL:-disabled}" POLYGPU_JIT=0 \
        nice -n 10 "$env_dir/bin/python" -m pip install -v "numpy==$polygpu_numpy_version"
} >"$log" 2>&1 || {
    tail -n 40 "$log" >&2
    echo "scripts/numpy.sh: the numpy build failed after $((SECONDS - start)) s; the whole log is $log." >&2
    exit 1
}
version="$("$env_dir/bin/python" -c 'import numpy; print(numpy.__version__)')"
if [ "$version" != "$polygpu_numpy_version" ]; then
    echo "scripts/numpy.sh: the environment imports numpy '$version', not $polygpu_numpy_version." >&2
    exit 1
fi
polygpu_python_env_key >"$env_dir/.polygpu-stamp"
echo "numpy $version built and installed in $((SECONDS - start)) s; bin/polygpu imports it from $env_dir." >&2
