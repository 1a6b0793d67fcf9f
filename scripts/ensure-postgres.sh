#!/usr/bin/env bash
# The PostgreSQL tests (tests/server/pg.py) start a throwaway server of their own with
# Debian's server binaries. Install them when they are missing; needs root, as on CI.
# Nothing is started and no cluster is made: the tests need neither.
set -euo pipefail
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "ensure-postgres: the PostgreSQL server is missing; install the Debian package" \
         "postgresql (as root) to run the PostgreSQL tests, skipped meanwhile" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# the package would make a 'main' cluster in /var/lib/postgresql ...
mkdir -p /etc/postgresql-common/createcluster.d
echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/cubegames.conf
# ... and start the system service: forbid that for the length of the install (Debian's
# policy-rc.d; one that is there already is left alone)
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    trap 'rm -f "$policy"' EXIT
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod 755 "$policy"
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends postgresql >/dev/null
