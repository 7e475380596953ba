#!/usr/bin/env bash
# Runs the polygpu demo, examples/vector_squares.py, through bin/polygpu: a vector squared and summed in partitions,
# each launch scheduled by polygpu on a GPU (4 emulated V100 when no GPU is present). Prints the results and the
# devices used. Arguments: [--polygpu.Option=value ...] [elements [partitions]]; bin/polygpu --help lists options.
# Sets things up first: installs Maven (the apt package maven) when mvn is missing, NVRTC (scripts/install-nvrtc.sh)
# when no NVRTC is found, builds polygpu when its sources changed, and then re-creates the JDK's AOT cache for
# bin/polygpu --no-jit (scripts/aot-cache.sh) when it is stale.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_install_maven
"$polygpu_root/scripts/install-nvrtc.sh"
polygpu_build_if_needed
"$polygpu_root/scripts/aot-cache.sh" || true
options=()
while [ $# -gt 0 ] && [[ "$1" == --* ]]; do
    options+=("$1")
    shift
done
exec "$polygpu_root/bin/polygpu" "${options[@]}" "$polygpu_root/examples/vector_squares.py" "$@"
