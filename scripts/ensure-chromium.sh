#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (a browser download is not
# possible here). Install it when it is missing; needs root, as on CI.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "ensure-chromium: /usr/bin/chromium is missing; install the Debian packages" \
         "chromium and chromium-driver (as root) to run the browser tests" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver >/dev/null
