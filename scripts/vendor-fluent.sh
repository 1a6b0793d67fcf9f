#!/bin/sh
# Vendor Project Fluent's runtime (@fluent/bundle) into the page's static files (no CDN: the
# page loads nothing from outside). Fetches the pinned release with npm and copies its ES-module
# build into src/cubegames/server/static/vendor/fluent/. The copied files are committed, so
# `pip install` alone serves the page; rerun this only to change the pin. The server reads the
# same catalogs (static/locales/*.ftl) with the Python `fluent.runtime`, pinned in pyproject.toml.
set -eu
VERSION=0.19.1
HERE=$(cd "$(dirname "$0")/.." && pwd)
DEST="$HERE/src/cubegames/server/static/vendor/fluent"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm pack --silent "@fluent/bundle@$VERSION" >/dev/null && tar -xzf "fluent-bundle-$VERSION.tgz")
rm -rf "$DEST"
mkdir -p "$DEST"
cp "$WORK"/package/esm/*.js "$DEST/"
# the package carries no LICENSE file: its licence is named in package.json
printf '@fluent/bundle %s\nlicence: Apache-2.0 (https://www.apache.org/licenses/LICENSE-2.0)\n' \
  "$VERSION" > "$DEST/VERSION"
echo "vendored @fluent/bundle $VERSION into $DEST"
