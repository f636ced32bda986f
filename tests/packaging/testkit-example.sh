#!/usr/bin/env bash
# testkit-example.sh BUILD_DIR VERSION
#
# What a QA team gets from buzz-canvas-dev, used as an outside project would: builds the package
# with CPack (the `dev` component only) into a temporary directory, unpacks it with dpkg -x, checks
# its metadata and the files a CMake project relies on, then configures, builds and runs the
# example Qt Test project the package ships (share/doc/buzz-canvas-dev/examples/qt-test) against
# the unpacked files only (CMAKE_PREFIX_PATH), offscreen, with ctest.
# Exit 77 (ctest skip) when the Debian tools are missing.
set -uo pipefail

build_dir=$1
version=$2

fail() {
    echo "FAIL: $*"
    exit 1
}
ok() { echo "ok: $*"; }

for tool in cpack dpkg-deb dpkg cmake ctest; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (./dev installs it)"
        exit 77
    fi
done
[ -f "$build_dir/CPackConfig.cmake" ] || fail "no CPackConfig.cmake in $build_dir"

work=$(mktemp -d "${TMPDIR:-/tmp}/buzz-testkit-example.XXXXXX")
trap 'rm -rf "$work"' EXIT

if ! cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work/out" \
    -D CPACK_COMPONENTS_ALL=dev >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    fail "cpack did not produce the dev package"
fi
arch=$(dpkg --print-architecture)
deb="$work/out/buzz-canvas-dev_${version}_${arch}.deb"
[ -f "$deb" ] || { ls -l "$work/out"; fail "expected $(basename "$deb")"; }
ok "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

dpkg-deb -I "$deb" >"$work/info"
field() { sed -n "s/^ $1: //p" "$work/info"; }
[ "$(field Package)" = buzz-canvas-dev ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
[ "$(field Section)" = libdevel ] || fail "Section is '$(field Section)'"
grep -q 'qt6-base-dev' <<<"$(field Depends)" || fail "Depends lacks qt6-base-dev: $(field Depends)"
grep -q '^ Description: Qt Test GUI automation kit for Buzz Canvas$' "$work/info" ||
    fail "synopsis: $(grep '^ Description:' "$work/info")"
ok "metadata: Depends: $(field Depends)"

root="$work/root"
dpkg -x "$deb" "$root"
usr="$root/usr"
[ -f "$usr/include/BuzzCanvasTestKit/AppDriver.h" ] || fail "no include/BuzzCanvasTestKit/AppDriver.h"
config=$(find "$usr/lib" -path '*/cmake/BuzzCanvasTestKit/BuzzCanvasTestKitConfig.cmake' | head -n 1)
[ -n "$config" ] || fail "no BuzzCanvasTestKitConfig.cmake under usr/lib"
library=$(find "$usr/lib" -name 'libbuzz-canvas-testkit.so.*' -type f | head -n 1)
[ -n "$library" ] || fail "no libbuzz-canvas-testkit.so.* under usr/lib"
[ -e "$(dirname "$library")/libbuzz-canvas-testkit.so" ] || fail "no libbuzz-canvas-testkit.so link"
if grep -rlF "$(readlink -f "$build_dir")" "$(dirname "$config")"; then
    fail "the CMake package points into the build tree"
fi
example="$usr/share/doc/buzz-canvas-dev/examples/qt-test"
[ -f "$example/CMakeLists.txt" ] || fail "no example project in share/doc/buzz-canvas-dev/examples"
ok "files: $(cd "$root" && find . -type f | wc -l) in the package"

# The example as a QA team uses it: copied out of the package, nothing of this tree on its paths.
cp -r "$example" "$work/example"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
export QT_LOGGING_RULES="*.debug=false"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/home/run"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
cmake -S "$work/example" -B "$work/example-build" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$usr" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "the example does not configure against the package"; }
ok "configured: $(grep -m1 '^BuzzCanvasTestKit_DIR' "$work/example-build/CMakeCache.txt")"
cmake --build "$work/example-build" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "the example does not build against the package"; }
ok "built the example"
(cd "$work/example-build" && ctest --output-on-failure --timeout 600) ||
    fail "the example's tests failed"
echo "the example project builds against buzz-canvas-dev and passes"
