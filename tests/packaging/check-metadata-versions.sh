#!/usr/bin/env bash
# check-metadata-versions.sh VERSION METAINFO MANPAGE...
# The newest AppStream release and every man page header must name the version CMake builds, so a
# version bump cannot ship stale metadata.
set -euo pipefail
version=$1
metainfo=$2
shift 2
status=0

newest=$(grep -o '<release [^>]*version="[^"]*"' "$metainfo" | head -n 1 | sed 's/.*version="\([^"]*\)".*/\1/')
if [ "$newest" != "$version" ]; then
    echo "FAIL: newest <release> in $(basename "$metainfo") is '$newest', the project version is '$version'"
    status=1
else
    echo "ok: metainfo newest release $newest"
fi

for page in "$@"; do
    header=$(grep -m 1 '^\.TH ' "$page" || true)
    if [[ "$header" != *"Buzz Canvas $version\""* ]]; then
        echo "FAIL: $(basename "$page") header does not name version $version: $header"
        status=1
    else
        echo "ok: $(basename "$page") names $version"
    fi
done
exit $status
