#!/usr/bin/env bash
# Creates the JDK's ahead-of-time cache that makes `bin/polygpu --no-jit` start faster (scripts/aot.sh says what it
# holds and when bin/polygpu uses it), unless the one there is fresh; --force re-creates it anyway. scripts/demo.sh
# and scripts/test.sh run it after building; run it yourself after rebuilding with Maven. Takes about half a minute.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$polygpu_root/scripts/aot.sh"
polygpu_java_home
if [ "${1:-}" != "--force" ] && polygpu_aot_fresh; then
    echo "polygpu: the AOT cache in $polygpu_aot_dir is up to date." >&2
    exit 0
fi
polygpu_aot_create
