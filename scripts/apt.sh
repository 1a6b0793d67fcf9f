# Shared by the ensure-*.sh scripts (sourced, not run): install Debian packages the tests
# need, quietly, without starting any system service they bring.

# apt_install [APT-OPTION...] PACKAGE...: install with apt-get as root. Any service a package would start
# (PostgreSQL's cluster, nginx on port 80) is forbidden for the length of the install by
# Debian's policy-rc.d; one that is there already is left alone. The package list is
# fetched once per run of make, however many scripts call this.
apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    local policy=/usr/sbin/policy-rc.d
    if [ ! -e "$policy" ]; then
        trap 'rm -f /usr/sbin/policy-rc.d' EXIT
        printf '#!/bin/sh\nexit 101\n' > "$policy"
        chmod 755 "$policy"
    fi
    local stamp=/tmp/cubegames-apt-updated.$PPID
    if [ ! -e "$stamp" ]; then
        apt-get update -qq
        touch "$stamp"
    fi
    apt-get install -y -qq "$@" >/dev/null
}

# not_root_skip MESSAGE: when not root, say MESSAGE on stderr and end the calling script
# with success (the tests that need the packages skip themselves).
not_root_skip() {
    if [ "$(id -u)" != 0 ]; then
        echo "$1" >&2
        exit 0
    fi
}
