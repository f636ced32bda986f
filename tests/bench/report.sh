#!/usr/bin/env bash
# report.sh BUILD_DIR OUTPUT.md [BENCH_NAME...]
#
# Runs every benchmark executable BUILD_DIR/tests/bench/*_bench (or only the named ones), one at a
# time so they do not compete for the cores, echoes their output, and writes OUTPUT.md: one table of
# all their BENCH lines plus the machine they ran on. Plain bash + POSIX awk (mawk), because python
# is not part of a minimal Debian install.
#
# BENCH line (tests/bench/README.md):
#   BENCH <name> | <value> <unit> | target <target or -> | anchor <anchor name> <anchor value> | ratio <x>
# "met?" is decided when the target reads `<op> <number> [unit]` with op one of < <= > >= ≤ ≥:
#   - unit empty or equal to the value's unit, or both time (ns us µs ms s) or both size
#     (B KB MB GB KiB MiB GiB) units: compared with the value;
#   - unit `x` or `×` (optionally followed by words, e.g. `>= 0.6x verify`): compared with the ratio.
# Anything else shows `?`; no target shows `–`.
#
# Environment: BUZZ_BENCH_TIMEOUT (seconds per benchmark, default 1800).
# Exit status: 0 when every benchmark ran and exited 0 (targets missed do not fail the run), else 1.
set -uo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR OUTPUT.md [BENCH_NAME...]" >&2
    exit 2
fi
build_dir=$(readlink -f "$1")
output=$2
shift 2
bench_dir="$build_dir/tests/bench"
per_bench_timeout=${BUZZ_BENCH_TIMEOUT:-1800}

benches=()
if [ $# -gt 0 ]; then
    for name in "$@"; do
        [ -x "$bench_dir/$name" ] || { echo "no benchmark $bench_dir/$name" >&2; exit 2; }
        benches+=("$bench_dir/$name")
    done
else
    for path in "$bench_dir"/*_bench; do
        [ -f "$path" ] && [ -x "$path" ] && benches+=("$path")
    done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/buzz-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/lines"
: >"$work/runs"

# Benchmarks run headless and must not touch the user's real app data.
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
export QT_LOGGING_RULES=${QT_LOGGING_RULES:-"buzz.*.debug=false"}

status=0
for path in "${benches[@]}"; do
    name=$(basename "$path")
    echo "==> $name" >&2
    start=$(date +%s.%N)
    timeout --signal=TERM --kill-after=30 "$per_bench_timeout" "$path" 2>&1 | tee "$work/$name.out"
    rc=${PIPESTATUS[0]}
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    [ "$rc" -eq 0 ] || status=1
    printf '%s\t%s\t%s\n' "$name" "$rc" "$seconds" >>"$work/runs"
    grep '^BENCH ' "$work/$name.out" | sed "s/^/$name\t/" >>"$work/lines"
done

# --- machine ----------------------------------------------------------------------------------------
cache="$build_dir/CMakeCache.txt"
cache_value() { [ -f "$cache" ] && sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
cores=$(nproc)
ram=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
cxx=$(cache_value CMAKE_CXX_COMPILER)
compiler=$({ [ -n "$cxx" ] && "$cxx" --version 2>/dev/null || c++ --version 2>/dev/null; } | head -n 1)
build_type=$(cache_value CMAKE_BUILD_TYPE)
qt=$(pkg-config --modversion Qt6Core 2>/dev/null || qmake6 -query QT_VERSION 2>/dev/null || echo unknown)
commit=$(git -C "$(dirname "$(readlink -f "$0")")" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")

# --- report -----------------------------------------------------------------------------------------
{
    echo "# Benchmark report"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit \`$commit\`, \`${build_type:-unknown}\` build."
    echo
    if [ ! -s "$work/lines" ]; then
        echo "No benchmark printed a BENCH line (benchmarks found: ${#benches[@]})."
    else
        awk -F'\t' -f /dev/stdin "$work/lines" <<'AWK'
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function cell(s) { gsub(/\|/, "\\|", s); return s == "" ? "–" : s }
# Leading number of s (sets REST to what follows), or "" when s does not start with one.
function number(s,   n) {
    s = trim(s)
    if (!match(s, /^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?/)) { REST = s; return "" }
    n = substr(s, 1, RLENGTH); REST = trim(substr(s, RLENGTH + 1)); return n + 0
}
function family(u) {
    if (u == "ns" || u == "us" || u == "µs" || u == "ms" || u == "s") return "time"
    if (u == "B" || u == "KB" || u == "kB" || u == "MB" || u == "GB" || u == "KiB" || u == "MiB" || u == "GiB") return "size"
    return ""
}
function scale(u) {
    if (u == "ns") return 1e-9; if (u == "us" || u == "µs") return 1e-6; if (u == "ms") return 1e-3
    if (u == "KB" || u == "kB") return 1e3; if (u == "MB") return 1e6; if (u == "GB") return 1e9
    if (u == "KiB") return 1024; if (u == "MiB") return 1048576; if (u == "GiB") return 1073741824
    return 1
}
function compare(a, op, b) {
    if (op == "<") return a < b; if (op == "<=") return a <= b
    if (op == ">") return a > b; return a >= b
}
# "yes", "**no**", "–" (no target) or "?" (target not machine-readable).
function met(target, value, unit, ratio,   op, t, tu, first) {
    target = trim(target)
    if (target == "" || target == "-" || target == "–") return "–"
    if (index(target, "<=") == 1 || index(target, ">=") == 1) { op = substr(target, 1, 2); target = substr(target, 3) }
    else if (index(target, "≤") == 1) { op = "<="; target = substr(target, length("≤") + 1) }
    else if (index(target, "≥") == 1) { op = ">="; target = substr(target, length("≥") + 1) }
    else if (index(target, "<") == 1 || index(target, ">") == 1) { op = substr(target, 1, 1); target = substr(target, 2) }
    else return "?"
    t = number(target); if (t == "") return "?"
    tu = REST
    first = tu; sub(/[ \t].*$/, "", first)
    if (first == "x" || first == "×" || index(tu, "x ") == 1 || index(tu, "×") == 1) {
        if (ratio == "" || ratio == "-") return "?"
        return compare(ratio + 0, op, t) ? "yes" : "**no**"
    }
    if (value == "") return "?"
    if (tu == "" || tu == unit) return compare(value, op, t) ? "yes" : "**no**"
    if (family(tu) != "" && family(tu) == family(unit))
        return compare(value * scale(unit), op, t * scale(tu)) ? "yes" : "**no**"
    return "?"
}
BEGIN {
    print "| Benchmark | Figure | Value | Target | Anchor | Ratio | Met? |"
    print "|---|---|---:|---|---|---:|:---:|"
}
{
    bench = $1; n = split($2, part, / \| /)
    name = trim(part[1]); sub(/^BENCH[ \t]+/, "", name)
    value = number(part[2]); unit = REST
    shown = trim(part[2]); target = ""; anchor = ""; ratio = ""
    for (i = 3; i <= n; i++) {
        f = trim(part[i])
        if (index(f, "target") == 1) target = trim(substr(f, 7))
        else if (index(f, "anchor") == 1) anchor = trim(substr(f, 7))
        else if (index(f, "ratio") == 1) ratio = trim(substr(f, 6))
    }
    if (anchor == "-") anchor = ""
    if (target == "-") target = ""
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", bench, cell(name), cell(shown), cell(target),
        cell(anchor), cell(ratio == "-" ? "" : ratio), met(target, value, unit, ratio)
}
AWK
    fi
    echo
    echo "## Runs"
    echo
    echo "| Benchmark | Exit | Seconds |"
    echo "|---|---:|---:|"
    if [ -s "$work/runs" ]; then
        awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, ($2 == 0 ? "0" : "**" $2 "**"), $3 }' "$work/runs"
    fi
    [ ${#benches[@]} -gt 0 ] || echo "| (no \`*_bench\` executable in \`$bench_dir\`) | | |"
    echo
    echo "## Machine"
    echo
    echo "| | |"
    echo "|---|---|"
    echo "| CPU | $cpu |"
    echo "| Cores | $cores |"
    echo "| RAM | $ram |"
    echo "| OS | ${os:-unknown} |"
    echo "| Kernel | $(uname -r) |"
    echo "| Compiler | ${compiler:-unknown} |"
    echo "| Qt | $qt |"
    echo "| Date | $(date -u '+%Y-%m-%d %H:%M:%S UTC') |"
    if [ -s "$work/runs" ]; then
        echo
        echo "## Output"
        while IFS=$'\t' read -r name _ _; do
            grep -qv '^BENCH ' "$work/$name.out" || continue
            echo
            echo "<details><summary>$name</summary>"
            echo
            echo '```'
            # Context lines (sizes, phases) help read the figures; cap them so the report stays short.
            grep -v '^BENCH ' "$work/$name.out" | head -n 200
            echo '```'
            echo
            echo "</details>"
        done <"$work/runs"
    fi
} >"$output"

echo "wrote $output (${#benches[@]} benchmarks, $(wc -l <"$work/lines") figures)" >&2
exit $status
