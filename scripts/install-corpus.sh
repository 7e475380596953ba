#!/usr/bin/env bash
# Fetches the real-world kernel corpus: the published source archives listed as `package` rows in
# emulator/src/test/resources/org/polygpu/emulator/corpus/real-world.tsv, each pinned by version and sha256, from
# their registry (PyPI's file host) into <project>/.polygpu/corpus, extracting only the members the corpus tests
# read. Nothing of them is committed; the tests that use them are skipped where they are missing. Does nothing for
# an archive already extracted with the same sha256 and members. Outside CI a failed download only skips those
# tests; under CI (CI set) it is an error, as is a checksum mismatch anywhere.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

manifest="$polygpu_root/emulator/src/test/resources/org/polygpu/emulator/corpus/real-world.tsv"
target="$polygpu_root/.polygpu/corpus"
missing_status=0
[ -n "${CI:-}" ] && missing_status=1

fail() {
    if [ "$missing_status" = 0 ]; then
        echo "$1; the real-world corpus tests will be skipped." >&2
    else
        echo "$1; under CI the corpus is required." >&2
    fi
    exit "$missing_status"
}

command -v curl >/dev/null 2>&1 || fail "curl is missing, so the kernel corpus cannot be downloaded"
command -v sha256sum >/dev/null 2>&1 || fail "sha256sum is missing, so the kernel corpus cannot be verified"
mkdir -p "$target"
while IFS=$'\t' read -r kind name version sha256 url licence members; do
    [ "$kind" = package ] || continue
    stamp="$target/$name-$version.sha256"
    # The stamp records the archive and the members extracted from it: a change of either extracts again.
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sha256 $members" ] && [ -d "$target/$name-$version" ]; then
        continue
    fi
    archive="$target/${url##*/}"
    echo "Downloading $name $version ($licence) for the kernel corpus..." >&2
    if ! curl --fail --silent --show-error --location --retry 2 --max-time 300 -o "$archive.part" "$url"; then
        rm -f "$archive.part"
        fail "Could not download $url"
    fi
    actual="$(sha256sum "$archive.part" | cut -d' ' -f1)"
    if [ "$actual" != "$sha256" ]; then
        rm -f "$archive.part"
        echo "$url has sha256 $actual, not the pinned $sha256; refusing it." >&2
        exit 1
    fi
    IFS=, read -r -a patterns <<< "$members"
    rm -rf "${target:?}/$name-$version"
    if ! tar -xzf "$archive.part" -C "$target" --wildcards --no-wildcards-match-slash "${patterns[@]}"; then
        rm -f "$archive.part"
        echo "Could not extract ${patterns[*]} from $archive." >&2
        exit 1
    fi
    rm -f "$archive.part"
    echo "$sha256 $members" > "$stamp"
done < "$manifest"
