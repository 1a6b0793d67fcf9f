#!/usr/bin/env bash
# The deployment tests (tests/server/test_deploy*.py, docs/deploy.md) run Debian's nginx in
# front of `cubegames serve`, as a process of their own with their own configuration in a
# temporary directory. Install the package when it is missing; needs root, as on CI.
# Nothing is started: the tests need the system service neither enabled nor running.
set -euo pipefail
. "$(dirname "$0")/apt.sh"
if [ -x /usr/sbin/nginx ]; then
    exit 0
fi
not_root_skip "ensure-nginx: nginx is missing; install the Debian package nginx (as root) to \
run the deployment tests, skipped meanwhile"
apt_install --no-install-recommends nginx
