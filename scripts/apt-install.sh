#!/usr/bin/env bash
# apt-install.sh WHO PACKAGE...: installs Debian packages for a step of
# scripts/test-deps.d (WHO names it in messages), as root or through sudo.
# Fails with a message when apt-get or the rights are missing.
set -euo pipefail
who=$1; shift
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$who: $* missing and apt-get unavailable" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "$who: need root to apt-get install $*" >&2
    exit 1
  fi
fi
echo "$who: installing $*" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
