#!/bin/sh
# Vendor three.js into the page's static files (no CDN: the page loads nothing from
# outside). Fetches the pinned release with npm, copies the module build and the
# OrbitControls addon into src/cubegames/server/static/vendor/three/. The copied files
# are committed, so `pip install` alone serves the page; rerun this only to change the pin.
set -eu
# the newest release checked that still ships build/three.module.min.js
VERSION=0.180.0
HERE=$(cd "$(dirname "$0")/.." && pwd)
DEST="$HERE/src/cubegames/server/static/vendor/three"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm pack --silent "three@$VERSION" >/dev/null && tar -xzf "three-$VERSION.tgz")
mkdir -p "$DEST/addons"
cp "$WORK/package/build/three.module.min.js" "$DEST/three.module.min.js"
# the module build imports its core from a sibling file in recent releases
if [ -f "$WORK/package/build/three.core.min.js" ]; then
  cp "$WORK/package/build/three.core.min.js" "$DEST/three.core.min.js"
fi
# the addon imports 'three': point it at the vendored file
sed "s#from 'three'#from '../three.module.min.js'#" \
  "$WORK/package/examples/jsm/controls/OrbitControls.js" > "$DEST/addons/OrbitControls.js"
cp "$WORK/package/LICENSE" "$DEST/LICENSE"
echo "three.js $VERSION" > "$DEST/VERSION"
echo "vendored three.js $VERSION into $DEST"
