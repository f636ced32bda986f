#!/usr/bin/env bash
# run-if-installed.sh TOOL [ARGS...]: runs TOOL, or reports a skip (exit 77, ctest SKIP_RETURN_CODE)
# when it is not installed, so a missing validator never counts as a pass.
set -euo pipefail
tool=$1
shift
if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (./dev installs it)"
    exit 77
fi
echo "+ $tool $*"
exec "$tool" "$@"
