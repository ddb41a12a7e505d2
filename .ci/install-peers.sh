#!/usr/bin/env bash
# Debian packages for the real peers the tests talk to. Each line says who needs it.
set -euo pipefail
if [ "$(id -u)" != "0" ]; then echo "install-peers: not root, skipping apt installs"; exit 0; fi
packages=(
  curl            # codegen execution tests (cURL target)
)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
