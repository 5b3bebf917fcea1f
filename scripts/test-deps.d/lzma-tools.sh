#!/usr/bin/env bash
# Installs the system decoders the decompress and ingest tests compare with
# the built-in ones: XZ Utils' xz and 7-Zip (7zz from Debian's 7zip, or 7z
# from p7zip-full), only when missing. Idempotent: a second run does nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
have7z() { command -v 7zz >/dev/null 2>&1 || command -v 7z >/dev/null 2>&1 || command -v 7za >/dev/null 2>&1; }
if command -v xz >/dev/null 2>&1 && have7z; then
  exit 0
fi
bash "$here/apt-install.sh" lzma-tools.sh xz-utils 7zip ||
  bash "$here/apt-install.sh" lzma-tools.sh xz-utils p7zip-full
command -v xz >/dev/null && have7z
