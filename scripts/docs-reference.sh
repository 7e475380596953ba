#!/usr/bin/env bash
# Regenerates the reference pages docs/reference/*.md from the code (options' descriptors, the CU namespace's
# builtins, the guest objects' members) and checks them, by running ReferenceDocsTest with polygpu.docs.update=true.
# Run it after adding or changing an option, a builtin or a member, and commit the pages it writes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
polygpu_java_home
polygpu_maven
cd "$polygpu_root"
mvn -B -q -pl test -am test -Dtest=ReferenceDocsTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dpolygpu.docs.update=true "$@"
git status --short docs/reference
