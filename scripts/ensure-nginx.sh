#!/usr/bin/env bash
# The deployment tests (tests/server/test_deploy*.py, docs/deploy.md) run Debian's nginx in
# front of `cubegames serve`, as a process of their own with their own configuration in a
# temporary directory. Install the package when it is missing; needs root, as on CI.
# Nothing is started: the package's system service is forbidden for the length of the
# install, and the tests need it neither enabled nor running.
set -euo pipefail
if [ -x /usr/sbin/nginx ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "ensure-nginx: nginx is missing; install the Debian package nginx (as root) to" \
         "run the deployment tests, skipped meanwhile" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# the package would start the system service on port 80: forbid that for the length of the
# install (Debian's policy-rc.d; one that is there already is left alone)
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    trap 'rm -f "$policy"' EXIT
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod 755 "$policy"
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends nginx >/dev/null
