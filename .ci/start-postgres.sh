#!/usr/bin/env bash
# Starts Debian's PostgreSQL cluster for the multi-instance tests and prints the admin URL for
# TEST_DATABASE_URL. Tests create (and drop) a database of their own on it. Idempotent.
set -euo pipefail
# Only the URL goes to stdout; everything the tools print goes to stderr.
exec 3>&1 1>&2
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start 2>/dev/null || true
for _ in $(seq 1 30); do
  if su postgres -c "psql -qAt -c 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 1
done
su postgres -c "psql -qAt -c \"alter user postgres password 'postgres'\"" >/dev/null
echo "postgres://postgres:postgres@127.0.0.1:5432/postgres" >&3
