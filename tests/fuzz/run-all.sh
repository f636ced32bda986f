#!/usr/bin/env bash
# run-all.sh BUILD_DIR SECONDS [TARGET...]
#
# Runs each libFuzzer target built in BUILD_DIR/tests/fuzz (or only the named ones) for SECONDS,
# starting from seeds generated from tests/data (make_fuzz_seeds) plus the corpus earlier runs kept
# in BUILD_DIR/tests/fuzz/corpus/<target>. Prints executions and crashes per target; a crash
# (abort, sanitizer report, broken invariant, timeout, OOM) leaves its input in
# BUILD_DIR/tests/fuzz/artifacts/ and the log next to it.
# Exit status: 0 when every target ran without a crash, 1 otherwise, 2 on usage errors.
set -uo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2
    exit 2
fi
build_dir=$(readlink -f "$1")
seconds=$2
shift 2
fuzz_dir="$build_dir/tests/fuzz"
source_dir=$(dirname "$(readlink -f "$0")")
data_dir="$source_dir/../data"

targets=()
if [ $# -gt 0 ]; then
    targets=("$@")
else
    for path in "$fuzz_dir"/fuzz_*; do
        [ -f "$path" ] && [ -x "$path" ] && targets+=("$(basename "$path")")
    done
fi
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets in $fuzz_dir (build target buzz_fuzz)" >&2; exit 2; }

seeds="$fuzz_dir/seeds"
"$fuzz_dir/make_fuzz_seeds" "$data_dir" "$seeds" >/dev/null || { echo "seed generation failed" >&2; exit 2; }
mkdir -p "$fuzz_dir/artifacts" "$fuzz_dir/logs"

# Leaks are findings too; UBSan reports abort (the targets are built with -fno-sanitize-recover).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export QT_LOGGING_RULES=${QT_LOGGING_RULES:-"*.debug=false;buzz.*=false"}

status=0
printf '%-18s %12s %10s %8s %8s\n' target executions exec/s corpus crashes
for target in "${targets[@]}"; do
    exe="$fuzz_dir/$target"
    [ -x "$exe" ] || { echo "missing fuzz target $exe" >&2; status=1; continue; }
    corpus="$fuzz_dir/corpus/$target"
    mkdir -p "$corpus"
    log="$fuzz_dir/logs/$target.log"
    before=$(ls "$fuzz_dir/artifacts" | grep -c "^$target-" || true)
    # -timeout: one input taking 10 s is a hang; -rss_limit_mb: the 2-core CI box has little to spare.
    "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
        -print_final_stats=1 -artifact_prefix="$fuzz_dir/artifacts/$target-" \
        "$corpus" "$seeds/$target" >"$log" 2>&1
    rc=$?
    after=$(ls "$fuzz_dir/artifacts" | grep -c "^$target-" || true)
    crashes=$((after - before))
    [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1 # died without leaving an input (e.g. start-up)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    size=$(ls "$corpus" | wc -l)
    printf '%-18s %12s %10s %8s %8s\n' "$target" "${execs:-?}" "${rate:-?}" "$size" "$crashes"
    if [ "$crashes" -ne 0 ]; then
        status=1
        echo "--- $target failed (exit $rc); log $log; last lines:" >&2
        grep -E 'FUZZ INVARIANT|ERROR: |SUMMARY|runtime error|Test unit written' "$log" | head -n 20 >&2
    fi
done
exit $status
