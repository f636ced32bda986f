#!/usr/bin/env bash
# deb-roundtrip.sh BUILD_DIR VERSION COMMIT "exe1;exe2;..."
#
# What a user gets from the .deb: builds it with CPack from the (already built) tree into a temporary
# directory, unpacks it with dpkg -x into a temporary root, and checks
#   - the package metadata (name, version, architecture) and that its Depends names the Debian
#     package of every shared library the installed executables load (derived, so nothing is missed),
#     plus the ones the brief of the packaging issue names explicitly;
#   - every installed executable runs from there: --version prints the CMake version and git commit,
#     --help prints a usage text; no RPATH points back into the build tree;
#   - the desktop file, AppStream metainfo, icons (each PNG has the size its folder says), man pages
#     and the systemd user unit are where desktops and tools look for them.
# Exit 77 (ctest skip) when there is nothing to package yet or the Debian tools are missing.
set -uo pipefail

build_dir=$1
version=$2
commit=$3
IFS=';' read -r -a executables <<<"${4:-}"
app_id=io.github.buzz.Canvas

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
ok() { echo "ok: $*"; }

if [ ${#executables[@]} -eq 0 ]; then
    echo "SKIP: no executable target exists yet, nothing to package"
    exit 77
fi
for tool in cpack dpkg-deb dpkg dpkg-shlibdeps readelf file; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (./dev installs it)"
        exit 77
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/buzz-deb-roundtrip.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- build the package into the temp dir (staging lands there too, never in the build tree) -------
# The app's package only; buzz-canvas-dev has its own check (testkit-example.sh).
if ! cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work/out" \
    -D CPACK_COMPONENTS_ALL=runtime >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack did not produce a package"
    exit 1
fi
arch=$(dpkg --print-architecture)
deb="$work/out/buzz-canvas_${version}_${arch}.deb"
if [ ! -f "$deb" ]; then
    ls -l "$work/out"
    echo "FAIL: expected $(basename "$deb")"
    exit 1
fi
ok "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# --- control metadata -------------------------------------------------------------------------------
dpkg-deb -I "$deb" >"$work/info"
field() { sed -n "s/^ $1: //p" "$work/info"; }
[ "$(field Package)" = buzz-canvas ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)'"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
echo "Depends: $depends"
# Package names in Depends, one per line, without version constraints or alternatives' bars.
depends_names=$(tr ',|' '\n\n' <<<"$depends" | sed 's/(.*)//; s/^ *//; s/ *$//' | grep -v '^$' | sort -u)
has_dep() { grep -qx "$1" <<<"$depends_names"; }

dpkg -x "$deb" "$work/root"
root="$work/root"
bindir="$root/usr/bin"

expect_dep() { # expect_dep PACKAGE WHY
    if has_dep "$1"; then ok "depends on $1 ($2)"; else fail "Depends lacks $1 ($2)"; fi
}
is_packaged() { [[ " ${executables[*]} " == *" $1 "* ]]; }

expect_dep libqt6core6 "every executable is a Qt program"
expect_dep libsecp256k1-1 "every executable signs or verifies events"
is_packaged buzz-canvas && expect_dep libqt6widgets6 "buzz-canvas is a Qt Widgets app"
if is_packaged buzz-canvas || is_packaged buzz-mock-relay; then
    expect_dep libsqlite3-0 "the relay store"
fi

# Every library an installed executable loads must come from a package the .deb depends on.
for exe in "${executables[@]}"; do
    path="$bindir/$exe"
    [ -x "$path" ] || continue
    while read -r soname; do
        lib=$(ldconfig -p | awk -v s="$soname" '$1 == s { print $NF; exit }')
        [ -n "$lib" ] || { fail "$exe needs $soname, which ldconfig does not know"; continue; }
        pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -n 1 | cut -d: -f1)
        [ -n "$pkg" ] || pkg=$(dpkg -S "$lib" 2>/dev/null | head -n 1 | cut -d: -f1)
        if [ -z "$pkg" ]; then
            fail "$exe needs $soname ($lib), which belongs to no Debian package"
        elif ! has_dep "$pkg"; then
            fail "$exe needs $soname from $pkg, but Depends does not name $pkg"
        fi
    done < <(readelf -d "$path" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done

# --- executables run from the unpacked root ---------------------------------------------------------
export QT_QPA_PLATFORM=offscreen
export QT_LOGGING_RULES="*.debug=false"
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config"
export XDG_RUNTIME_DIR="$work/home/run"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
for exe in "${executables[@]}"; do
    path="$bindir/$exe"
    if [ ! -x "$path" ]; then
        fail "$exe is not installed in /usr/bin"
        continue
    fi
    if readelf -d "$path" | grep -E '\((RPATH|RUNPATH)\)' | grep -qF "$build_dir"; then
        fail "$exe carries an RPATH into the build tree"
    fi
    if out=$(timeout 30 "$path" --version 2>&1); then
        if [[ "$out" == *"$version"* && "$out" == *"$commit"* ]]; then
            ok "$exe --version: $(head -n 1 <<<"$out")"
        else
            fail "$exe --version does not name version $version and commit $commit: $out"
        fi
    else
        fail "$exe --version exited with $?: $out"
    fi
    if out=$(timeout 30 "$path" --help 2>&1); then
        if grep -qi 'usage' <<<"$out" && grep -q -- '--version' <<<"$out"; then
            ok "$exe --help ($(wc -l <<<"$out") lines)"
        else
            fail "$exe --help prints no usage text listing --version: $out"
        fi
    else
        fail "$exe --help exited with $?: $(head -n 5 <<<"$out")"
    fi
done

# --- files where desktops and tools look for them ---------------------------------------------------
share="$root/usr/share"
for exe in "${executables[@]}"; do
    [ -f "$share/man/man1/$exe.1.gz" ] || fail "no man page $exe.1.gz"
done
if is_packaged buzz-canvas; then
    desktop="$share/applications/$app_id.desktop"
    metainfo="$share/metainfo/$app_id.metainfo.xml"
    [ -f "$desktop" ] || fail "no $app_id.desktop in share/applications"
    [ -f "$metainfo" ] || fail "no $app_id.metainfo.xml in share/metainfo"
    grep -qx 'Exec=buzz-canvas' "$desktop" || fail "desktop file does not start buzz-canvas"
    grep -qx "Icon=$app_id" "$desktop" || fail "desktop file names another icon"
    grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" ||
        fail "metainfo does not launch $app_id.desktop"
    [ -f "$share/icons/hicolor/scalable/apps/$app_id.svg" ] || fail "no scalable icon"
    for size in 16 22 24 32 48 64 128 256 512; do
        png="$share/icons/hicolor/${size}x${size}/apps/$app_id.png"
        if [ ! -f "$png" ]; then
            fail "no ${size}x${size} icon"
        elif ! file "$png" | grep -q "PNG image data, $size x $size,"; then
            fail "${size}x${size} icon is $(file -b "$png")"
        fi
    done
    if command -v desktop-file-validate >/dev/null; then
        desktop-file-validate "$desktop" || fail "desktop-file-validate on the installed file"
    fi
    if command -v appstreamcli >/dev/null; then
        appstreamcli validate --no-net "$metainfo" >"$work/as.log" 2>&1 ||
            { cat "$work/as.log"; fail "appstreamcli validate on the installed file"; }
    fi
fi
if is_packaged buzz-mock-relay; then
    unit="$root/usr/lib/systemd/user/buzz-mock-relay.service"
    if [ ! -f "$unit" ]; then
        fail "no systemd user unit in /usr/lib/systemd/user"
    else
        grep -q '^ExecStart=/usr/bin/buzz-mock-relay --data %h/.local/share/buzz-mock-relay --listen 127.0.0.1:3000$' "$unit" ||
            fail "unit ExecStart is $(grep '^ExecStart=' "$unit")"
    fi
    # Off by default: the package must not enable it (no wants/ symlink, no maintainer script).
    find "$root" -path '*/default.target.wants/*' | grep -q . && fail "the package enables the unit"
    dpkg-deb -e "$deb" "$work/control"
    [ -e "$work/control/postinst" ] && fail "the package has a postinst (the unit must stay off)"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all package checks passed"
