#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (a browser download is not
# possible here), and draw the Japanese pages with Debian's Noto CJK fonts (without them every
# kanji is a box in the screenshots). Install what is missing; needs root, as on CI.
set -euo pipefail
. "$(dirname "$0")/apt.sh"
FONTS=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && [ -f "$FONTS" ]; then
    exit 0
fi
not_root_skip "ensure-chromium: install the Debian packages chromium, chromium-driver and \
fonts-noto-cjk (as root) to run the browser tests"
apt_install chromium chromium-driver fonts-noto-cjk
