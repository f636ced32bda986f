#!/usr/bin/env bash
# The ctest pair (tests/support/pg.cmake) is a real primary + streaming hot standby: a row written
# on the primary is replayed on the standby, which is in recovery and refuses writes.
set -euo pipefail
env_file=${BUZZ_TEST_PG_CLUSTER:?set by ctest (tests/support/pg.cmake)}
if [ ! -f "$env_file" ]; then
  echo "PostgreSQL tests skipped: no cluster file at $env_file (run through ctest)"
  exit 0
fi
# shellcheck disable=SC1090
. "$env_file"
if [ -n "${BUZZ_PG_ABSENT:-}" ]; then
  echo "PostgreSQL tests skipped: $BUZZ_PG_ABSENT"
  exit 0
fi
psql=$BUZZ_PG_BINDIR/psql
primary() { "$psql" "$BUZZ_PG_PRIMARY_URL" -v ON_ERROR_STOP=1 -Atqc "$1"; }
standby() { "$psql" "$BUZZ_PG_STANDBY_URL" -v ON_ERROR_STOP=1 -Atqc "$1"; }

token="smoke-$$-$RANDOM"
primary "CREATE TABLE IF NOT EXISTS buzz_smoke (token text PRIMARY KEY)"
primary "INSERT INTO buzz_smoke VALUES ('$token')"
lsn=$(primary "SELECT pg_current_wal_lsn()")
# Replay is asynchronous: wait (bounded) for the standby's replay position to pass the write.
for _ in $(seq 1 200); do
  [ "$(standby "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = "t" ] && break
  sleep 0.05 # polling another process's progress; there is nothing to wait on instead
done
[ "$(standby "SELECT count(*) FROM buzz_smoke WHERE token = '$token'")" = "1" ] || {
  echo "FAIL: the row written on the primary is not on the standby"
  exit 1
}
[ "$(standby "SELECT pg_is_in_recovery()")" = "t" ] || { echo "FAIL: standby not in recovery"; exit 1; }
if standby "INSERT INTO buzz_smoke VALUES ('refused-$token')" 2>/dev/null; then
  echo "FAIL: the standby accepted a write"
  exit 1
fi
primary "DELETE FROM buzz_smoke WHERE token = '$token'"
echo "PASS: primary write replayed on the standby at $lsn; the standby is read-only"
