#!/usr/bin/env bash
# The PostgreSQL tests (tests/server/pg.py) start a throwaway server of their own with
# Debian's server binaries. Install them when they are missing; needs root, as on CI.
# Nothing is started and no cluster is made: the tests need neither.
set -euo pipefail
. "$(dirname "$0")/apt.sh"
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    exit 0
fi
not_root_skip "ensure-postgres: the PostgreSQL server is missing; install the Debian package \
postgresql (as root) to run the PostgreSQL tests, skipped meanwhile"
# the package would make a 'main' cluster in /var/lib/postgresql
mkdir -p /etc/postgresql-common/createcluster.d
echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/cubegames.conf
apt_install --no-install-recommends postgresql
