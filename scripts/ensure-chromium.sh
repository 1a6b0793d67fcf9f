#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (a browser download is not
# possible here), and draw the Japanese pages with Debian's Noto CJK fonts (without them every
# kanji is a box in the screenshots). Install what is missing; needs root, as on CI.
set -euo pipefail
FONTS=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && [ -f "$FONTS" ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "ensure-chromium: install the Debian packages chromium, chromium-driver and" \
         "fonts-noto-cjk (as root) to run the browser tests" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null
