#!/usr/bin/env bash
# Installs Debian's chromium for the report rendering test (reports/), only
# when /usr/bin/chromium is missing. Idempotent: a second run does nothing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium.sh: /usr/bin/chromium missing and apt-get unavailable" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "chromium.sh: /usr/bin/chromium missing; need root to apt-get install chromium" >&2
    exit 1
  fi
fi
echo "chromium.sh: installing Debian chromium for the report test" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
test -x /usr/bin/chromium
