#!/usr/bin/env bash
# The Debian packages the test suite needs, installed where this machine lets us, else a stop
# with the exact command to run. Run by `npm test` (its pretest) and by .ci/run before `npm ci`.
#   chromium                       the UI tests (the Electron binary cannot be downloaded everywhere)
#   libsecret-1-dev                to build keytar (an optional dependency: without it, no keychain)
#   dbus dbus-x11 gnome-keyring    the keychain tests' real Secret Service on a private D-Bus session
#   openssl                        certificates for the HTTPS tests of `serve`
#   postgresql                     the store tests on PostgreSQL (a throwaway cluster: test/support/postgres-cluster.ts)
#   libpq-dev                      to build pg-native's libpq binding (the PostgreSQL driver) at npm ci
#   systemd                        systemd-analyze, which checks the example unit of deploy/
# Then keytar and pg-native: `npm ci` leaves these optional dependencies out where libsecret or
# libpq was missing; they are built now (npm install --no-save, at the locked version) so the
# keychain and PostgreSQL tests run for real.
# Exit codes: 0 everything is there (or was just installed); 1 installing failed; 3 packages are
# missing and we may not install them (not root, no passwordless sudo): the command is printed.
#
# For tests of this script only: PROOFDESK_SYSTEM_PACKAGES replaces the package list, and
# PROOFDESK_SYSTEM_DEPS_AS_USER=1 behaves as a user who is neither root nor a passwordless sudoer.
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a packages <<< "${PROOFDESK_SYSTEM_PACKAGES:-chromium libsecret-1-dev dbus dbus-x11 gnome-keyring openssl postgresql libpq-dev systemd}"

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-system-deps: this machine has no dpkg/apt-get (not Debian or Ubuntu). The tests need: Chromium at /usr/bin/chromium (or \$PROOFDESK_CHROMIUM), libsecret's headers, D-Bus (dbus-run-session), gnome-keyring, PostgreSQL 15+ (initdb, postgres), libpq headers and systemd-analyze. Install their equivalents, then run npm test again." >&2
  exit 3
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$package")
done

install_packages() {
  as_user="${PROOFDESK_SYSTEM_DEPS_AS_USER:-}"
  runner=()
  if [ -z "$as_user" ] && [ "$(id -u)" -eq 0 ]; then
    runner=()
  elif [ -z "$as_user" ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    runner=(sudo -n)
  else
    echo "ensure-system-deps: the tests need Debian packages that are not installed: ${missing[*]}." >&2
    echo "Install them (as root or with sudo), then run npm test again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 3
  fi

  echo "ensure-system-deps: installing ${missing[*]} (apt-get, needed by the tests)" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! { "${runner[@]}" apt-get update -q && "${runner[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >&2; then
    echo "ensure-system-deps: apt-get could not install ${missing[*]}; install them by hand: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
}

# keytar (the OS keychain) and pg-native (the PostgreSQL driver, over libpq) are optional
# dependencies that `npm ci` leaves out where their headers (libsecret, libpq) were missing at
# install time. With the headers here now, build them, or the keychain and PostgreSQL tests cannot run.
ensure_native() {
  local package=$1 why=$2 version
  [ -d node_modules ] || return 0 # before npm ci (.ci/run): npm ci builds it, the headers being here
  node -e "require('$package')" >/dev/null 2>&1 && return 0
  version=$(node -p "require('./package-lock.json').packages['node_modules/$package'].version")
  echo "ensure-system-deps: building $package $version (npm ci left it out: its headers were missing then), for $why" >&2
  if ! ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install --no-save --no-audit --no-fund "$package@$version" >&2; then
    echo "ensure-system-deps: $package could not be built; with the packages above installed, run npm ci again." >&2
    exit 1
  fi
}

if [ "${#missing[@]}" -gt 0 ]; then
  install_packages
fi
ensure_native keytar 'the keychain tests'
ensure_native pg-native 'the PostgreSQL store tests'
