#!/usr/bin/env bash
# Runs atspi_check.py against buzz-canvas on a private X server (Xvfb) and a private D-Bus session,
# where the AT-SPI bus (at-spi2-core) is started on demand. Skips (exit 77) only when that bus truly
# cannot start; every other problem is a failure.
#   usage: run_atspi_check.sh BUZZ_CANVAS_BINARY
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
binary=$1
python=/usr/bin/python3 # Debian's, with python3-pyatspi (not a pyenv or venv one)

skip() { echo "SKIP: AT-SPI check not run: $*"; exit 77; }
for tool in xvfb-run dbus-run-session "$python"; do
  command -v "$tool" >/dev/null || skip "$tool is missing (Debian: xvfb, dbus, python3)"
done
"$python" -c 'import pyatspi' 2>/dev/null || skip "python3-pyatspi is missing"
[ -x /usr/libexec/at-spi-bus-launcher ] || skip "at-spi2-core is missing"

if [ -z "${BUZZ_ATSPI_INNER:-}" ]; then
  export BUZZ_ATSPI_INNER=1
  unset DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS
  exec xvfb-run -a -s "-screen 0 1400x900x24 -nolisten tcp" dbus-run-session -- "$0" "$@"
fi

# Inside Xvfb and the private session bus: the AT-SPI bus must answer before the app starts, so
# the app's accessibility bridge finds it.
if ! address=$(timeout 30 dbus-send --session --print-reply=literal --dest=org.a11y.Bus \
    /org/a11y/bus org.a11y.Bus.GetAddress 2>&1); then
  skip "the AT-SPI bus did not start: $address"
fi
echo "AT-SPI bus: $address"
exec "$python" "$here/atspi_check.py" "$binary"
