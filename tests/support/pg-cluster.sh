#!/usr/bin/env bash
# A throwaway PostgreSQL 15 pair for tests, benches and QA: a primary and a real streaming hot
# standby (pg_basebackup -R, physical slot), each on a free loopback port, under a temp dir.
#
#   pg-cluster.sh start STATE_DIR [--fsync on|off] [--synchronous]
#                                                    start (or restart) the pair
#   pg-cluster.sh stop STATE_DIR                     stop it and delete its data
#   pg-cluster.sh status STATE_DIR                   exit 0 when both servers answer
#   pg-cluster.sh stop-standby STATE_DIR             stop the standby only (fast shutdown)
#   pg-cluster.sh start-standby STATE_DIR            start it again on its port (no-op if up)
#   pg-cluster.sh crash-primary STATE_DIR            stop the primary as a crash does (immediate)
#   pg-cluster.sh promote-standby STATE_DIR          promote the standby; waits until it writes
#
# --synchronous makes the standby synchronous (synchronous_standby_names = '*',
# synchronous_commit = remote_apply): a commit returns only once the standby applied it, so a
# failover loses nothing acknowledged and the standby reads what the primary answered. The shared
# pair of the PostgreSQL suites is asynchronous: its failure-mode tests stop the standby, which
# would hold every commit of a synchronous one. The failover test starts a pair of its own.
#
# The servers come from /usr/lib/postgresql/15/bin, or BUZZ_PG_BINDIR when set.
#
# `start` writes STATE_DIR/cluster.env (sourceable) and prints the same lines:
#   BUZZ_PG_PRIMARY_URL=postgresql://postgres@127.0.0.1:PORT/postgres
#   BUZZ_PG_STANDBY_URL=postgresql://postgres@127.0.0.1:PORT/postgres
#   BUZZ_PG_DATA=/tmp/buzz-pg.XXXXXX
# When PostgreSQL 15 is not installed it writes BUZZ_PG_ABSENT="why" instead and exits 0, so a
# ctest fixture built on it never fails: every PostgreSQL test then says why and skips.
# Run as root, the servers run as the `postgres` user (initdb refuses root).
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 2 ] || usage
command=$1
state_dir=$2
shift 2
fsync=on
synchronous=""
while [ $# -gt 0 ]; do
  case "$1" in
    --fsync) fsync=${2:?}; shift 2 ;;
    --synchronous) synchronous=1; shift ;;
    *) usage ;;
  esac
done
env_file="$state_dir/cluster.env"

# BUZZ_PG_BINDIR, when set, is the only place looked at (a missing one shows the skip path).
find_bindir() {
  local dir=${BUZZ_PG_BINDIR:-/usr/lib/postgresql/15/bin}
  [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/pg_basebackup" ] && [ -x "$dir/psql" ] \
    || return 1
  echo "$dir"
}

# Runs a server-side command as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
  local port tries=0
  while [ $tries -lt 200 ]; do
    port=$((20000 + RANDOM % 40000))
    if ! port_in_use "$port"; then
      echo "$port"
      return 0
    fi
    tries=$((tries + 1))
  done
  echo "no free loopback port found" >&2
  return 1
}

stop_cluster() {
  [ -f "$env_file" ] || return 0
  local data bindir
  data=$(sed -n 's/^BUZZ_PG_DATA=//p' "$env_file")
  bindir=$(sed -n 's/^BUZZ_PG_BINDIR=//p' "$env_file")
  if [ -n "$data" ] && [ -d "$data" ]; then
    for server in standby primary; do
      if [ -f "$data/$server/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$data/$server" -m immediate -w -t 60 stop >/dev/null 2>&1 || true
      fi
    done
    rm -rf "$data"
  fi
  rm -f "$env_file"
}

# Starts one server on a free port; retries with another port when the one chosen was taken
# between the check and the bind.
start_server() {
  local bindir=$1 pgdata=$2 log=$3 port attempt
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    sed -i '/^port = /d' "$pgdata/postgresql.conf"
    echo "port = $port" >>"$pgdata/postgresql.conf"
    if as_owner "$bindir/pg_ctl" -D "$pgdata" -l "$log" -w -t 60 start >/dev/null 2>&1; then
      echo "$port"
      return 0
    fi
  done
  echo "cannot start the server in $pgdata; its log:" >&2
  tail -n 20 "$log" >&2 || true
  return 1
}

start_cluster() {
  mkdir -p "$state_dir"
  stop_cluster
  local bindir
  if ! bindir=$(find_bindir); then
    local why="PostgreSQL 15 server binaries not found in ${BUZZ_PG_BINDIR:-/usr/lib/postgresql/15/bin} (install postgresql-15; ./dev does)"
    echo "BUZZ_PG_ABSENT=\"$why\"" | tee "$env_file"
    return 0
  fi
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    local why="running as root and there is no postgres user to run the servers as"
    echo "BUZZ_PG_ABSENT=\"$why\"" | tee "$env_file"
    return 0
  fi

  local data
  data=$(mktemp -d "${TMPDIR:-/tmp}/buzz-pg.XXXXXX")
  chmod 755 "$data"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$data"
  {
    echo "BUZZ_PG_DATA=$data"
    echo "BUZZ_PG_BINDIR=$bindir"
  } >"$env_file"

  as_owner "$bindir/initdb" -D "$data/primary" -U postgres --auth=trust --encoding=UTF8 --no-sync \
    --locale=C.UTF-8 >"$data/initdb.log" 2>&1 || {
    cat "$data/initdb.log" >&2
    return 1
  }
  # Loopback only, sockets in the temp dir (never the system cluster's). synchronous_commit on: the
  # relay acknowledges only after COMMIT is durable on the primary. The standby cancels a query
  # that blocks replay after 1 s (default 30 s), so recovery conflicts surface within a test.
  cat >>"$data/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$data'
wal_level = replica
max_wal_senders = 4
max_replication_slots = 4
hot_standby = on
hot_standby_feedback = on
max_standby_streaming_delay = 1s
wal_receiver_status_interval = 1s
synchronous_commit = on
fsync = $fsync
max_connections = 200
shared_buffers = 128MB
log_min_messages = warning
log_checkpoints = off
CONF
  local primary_port standby_port
  primary_port=$(start_server "$bindir" "$data/primary" "$data/primary.log")

  as_owner "$bindir/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$data/standby" \
    -R -X stream -C -S buzz_standby -c fast --no-sync >"$data/basebackup.log" 2>&1 || {
    cat "$data/basebackup.log" >&2
    return 1
  }
  standby_port=$(start_server "$bindir" "$data/standby" "$data/standby.log")

  # Ready when the primary sees the standby streaming.
  local streaming="" tries=0
  while [ $tries -lt 300 ]; do
    streaming=$("$bindir/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -d postgres \
      -Atqc "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'" 2>/dev/null || true)
    [ "$streaming" = "1" ] && break
    tries=$((tries + 1))
    sleep 0.1 # polling an external process's state; nothing to wait on instead
  done
  if [ "$streaming" != "1" ]; then
    echo "the standby did not start streaming; its log:" >&2
    tail -n 20 "$data/standby.log" >&2 || true
    return 1
  fi
  if [ -n "$synchronous" ]; then
    # Only now: with the standby named before it streams, the basebackup's own commits would wait.
    "$bindir/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -d postgres -Atq \
      -c "ALTER SYSTEM SET synchronous_standby_names = '*'" \
      -c "ALTER SYSTEM SET synchronous_commit = 'remote_apply'" -c "SELECT pg_reload_conf()" \
      >/dev/null
    local sync="" tries=0
    while [ $tries -lt 300 ]; do
      sync=$("$bindir/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -d postgres \
        -Atqc "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'" 2>/dev/null || true)
      [ "$sync" = "1" ] && break
      tries=$((tries + 1))
      sleep 0.1 # polling an external process's state; nothing to wait on instead
    done
    [ "$sync" = "1" ] || { echo "the standby did not become synchronous" >&2; return 1; }
  fi

  {
    echo "BUZZ_PG_PRIMARY_URL=postgresql://postgres@127.0.0.1:$primary_port/postgres"
    echo "BUZZ_PG_STANDBY_URL=postgresql://postgres@127.0.0.1:$standby_port/postgres"
    echo "BUZZ_PG_DATA=$data"
    echo "BUZZ_PG_BINDIR=$bindir"
  } | tee "$env_file"
}

status_cluster() {
  [ -f "$env_file" ] || return 1
  grep -q '^BUZZ_PG_ABSENT=' "$env_file" && return 1
  local url
  for url in $(sed -n 's/^BUZZ_PG_\(PRIMARY\|STANDBY\)_URL=//p' "$env_file"); do
    "$(sed -n "s/^BUZZ_PG_BINDIR=//p" "$env_file")/psql" "$url" -Atqc 'SELECT 1' >/dev/null 2>&1 || return 1
  done
}

# The failure-mode tests stop the standby and start it again; its port stays in its config.
standby_ctl() {
  local action=$1 data bindir
  [ -f "$env_file" ] && ! grep -q '^BUZZ_PG_ABSENT=' "$env_file" || {
    echo "no cluster in $state_dir" >&2
    return 1
  }
  data=$(sed -n 's/^BUZZ_PG_DATA=//p' "$env_file")
  bindir=$(sed -n 's/^BUZZ_PG_BINDIR=//p' "$env_file")
  if [ "$action" = stop ]; then
    [ -f "$data/standby/postmaster.pid" ] || return 0
    as_owner "$bindir/pg_ctl" -D "$data/standby" -m fast -w -t 60 stop >/dev/null
  else
    as_owner "$bindir/pg_ctl" -D "$data/standby" status >/dev/null 2>&1 && return 0
    as_owner "$bindir/pg_ctl" -D "$data/standby" -l "$data/standby.log" -w -t 60 start >/dev/null
  fi
}

# The failover test: the primary dies as in a crash, then the standby takes over.
failover_ctl() {
  local action=$1 data bindir
  [ -f "$env_file" ] && ! grep -q '^BUZZ_PG_ABSENT=' "$env_file" || {
    echo "no cluster in $state_dir" >&2
    return 1
  }
  data=$(sed -n 's/^BUZZ_PG_DATA=//p' "$env_file")
  bindir=$(sed -n 's/^BUZZ_PG_BINDIR=//p' "$env_file")
  if [ "$action" = crash ]; then
    as_owner "$bindir/pg_ctl" -D "$data/primary" -m immediate -w -t 60 stop >/dev/null
  else
    as_owner "$bindir/pg_ctl" -D "$data/standby" -w -t 60 promote >/dev/null
  fi
}

case "$command" in
  start) start_cluster ;;
  crash-primary) failover_ctl crash ;;
  promote-standby) failover_ctl promote ;;
  stop-standby) standby_ctl stop ;;
  start-standby) standby_ctl start ;;
  stop) stop_cluster ;;
  status) status_cluster ;;
  *) usage ;;
esac
