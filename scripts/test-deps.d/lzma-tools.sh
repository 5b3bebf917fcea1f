#!/usr/bin/env bash
# Installs the system decoders the decompress and ingest tests compare with
# the built-in ones: XZ Utils' xz and 7-Zip (7zz from Debian's 7zip, or 7z
# from p7zip-full), only when missing. Idempotent: a second run does nothing.
set -euo pipefail
have7z() { command -v 7zz >/dev/null 2>&1 || command -v 7z >/dev/null 2>&1 || command -v 7za >/dev/null 2>&1; }
if command -v xz >/dev/null 2>&1 && have7z; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "lzma-tools.sh: xz or 7z missing and apt-get unavailable" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "lzma-tools.sh: xz or 7z missing; need root to apt-get install xz-utils 7zip" >&2
    exit 1
  fi
fi
echo "lzma-tools.sh: installing xz-utils and 7zip for the decoder tests" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends xz-utils 7zip >/dev/null ||
  $sudo apt-get install -y -qq --no-install-recommends xz-utils p7zip-full >/dev/null
command -v xz >/dev/null && have7z
