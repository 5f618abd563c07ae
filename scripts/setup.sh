#!/bin/sh
# setup.sh - install the Debian packages the build needs, and only those
# missing.  The list is scripts/debian-packages (one place for every script).
#   ./scripts/setup.sh            check, and install what is missing
#   ./scripts/setup.sh --list     print the list and exit
# Runs `apt-get update` and `apt-get install -y` only when a package is
# missing (checked with dpkg-query), as root or through sudo.  On a system
# without dpkg it prints the list and carries on: ./configure names
# anything that is still missing.
# The package list is split into words on purpose:
# shellcheck disable=SC2086,SC2116
set -eu

here=$(cd "$(dirname "$0")" && pwd)
list="$here/debian-packages"
pkgs=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$list")

if [ "${1:-}" = --list ]; then
    echo $pkgs
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup: no dpkg-query (not Debian?): install the equivalents of: $(echo $pkgs)" >&2
    exit 0
fi

missing=
for p in $pkgs; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
    case $status in
        ii*) ;;
        *) missing="$missing $p" ;;
    esac
done

if [ -z "$missing" ]; then
    echo "setup: all $(echo $pkgs | wc -w) Debian packages are installed"
    exit 0
fi

echo "setup: installing missing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
    sudo=
elif command -v sudo >/dev/null 2>&1; then
    # Without a terminal sudo must not wait for a password.
    if [ -t 0 ]; then sudo=sudo; else sudo="sudo -n"; fi
else
    echo "setup: not root and no sudo: as root, run apt-get install -y$missing" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y $missing
