#!/usr/bin/env bash
# Builds polygpu, fetches what the tests need (Maven dependencies), and runs every test that does not need a GPU.
# Tests tagged `gpu` (real GPU needed) are excluded here. Installs Maven (the apt package maven) when mvn is missing,
# and NVRTC (scripts/install-nvrtc.sh) when no NVRTC is found.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_install_maven
"$polygpu_root/scripts/install-nvrtc.sh"
cd "$polygpu_root"
mvn -B -ntp "$@" install
mkdir -p target && touch target/.polygpu-build-stamp
