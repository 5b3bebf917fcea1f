#!/usr/bin/env bash
# Installs Debian's chromium for the report rendering test (reports/), only
# when /usr/bin/chromium is missing. Idempotent: a second run does nothing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
bash "$(cd "$(dirname "$0")/.." && pwd)/apt-install.sh" chromium.sh chromium
test -x /usr/bin/chromium
