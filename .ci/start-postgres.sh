#!/usr/bin/env bash
# Starts Debian's PostgreSQL cluster for the multi-instance tests and prints the admin URL for
# TEST_DATABASE_URL. Tests create (and drop) a database of their own on it. Idempotent.
#
# Only the URL goes to stdout, and the server must not inherit stdout: when this script runs
# inside `$(…)`, a daemon holding the capture pipe open makes the caller wait forever (that hung
# a CI run for its whole 90 minutes). So every command that may start or fork a server gets
# stdin, stdout and stderr of its own.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main </dev/null >/dev/null 2>&1
fi
pg_ctlcluster "$version" main start </dev/null >/dev/null 2>&1 || true
ready=false
for _ in $(seq 1 30); do
  if su postgres -c "psql -qAt -c 'select 1'" </dev/null >/dev/null 2>&1; then ready=true; break; fi
  sleep 1
done
if [ "$ready" != true ]; then
  echo "PostgreSQL $version did not start; its log:" >&2
  tail -n 30 "/var/log/postgresql/postgresql-$version-main.log" >&2 || true
  exit 1
fi
su postgres -c "psql -qAt -c \"alter user postgres password 'postgres'\"" </dev/null >/dev/null 2>&1
echo "postgres://postgres:postgres@127.0.0.1:5432/postgres"
