#!/usr/bin/env bash
# Debian packages for the real peers the tests talk to. Each line says who needs it.
set -euo pipefail
if [ "$(id -u)" != "0" ]; then echo "install-peers: not root, skipping apt installs"; exit 0; fi
packages=(
  curl            # codegen execution tests (cURL target)
  zsh             # codegen shell-quoting tests (bash / zsh target read back by zsh too)
  httpie          # codegen execution tests (HTTPie 3 target)
  wget            # codegen execution tests (Wget target)
  python3-requests  # codegen execution tests (Python requests target, Debian's /usr/bin/python3)
  python3-httpx   # codegen execution tests (Python httpx target)
  golang-go       # codegen execution tests (Go net/http target, go run)
  openjdk-17-jdk-headless  # codegen execution tests (Java HttpClient target, java Main.java)
  php-cli         # codegen execution tests (PHP curl target)
  php-curl        # codegen execution tests (PHP curl target: the curl extension)
  ruby            # codegen execution tests (Ruby Net::HTTP target)
  gcc             # codegen execution tests (C libcurl target: compiler)
  libcurl4-openssl-dev  # codegen execution tests (C libcurl target: headers and library)
  bsdutils        # `script`: a real pseudo-terminal for the no-echo prompt of `ferry secret set`
  mosquitto       # MQTT requests: a second real broker beside aedes (started by the tests on a free loopback port)
  knot-dnsutils   # DNS requests: kdig cross-checks the answers of the loopback DNS fixture; DNS server tests
  socat           # TCP/UDP requests and servers: a second real peer
  ncat            # TCP/TLS requests and servers: a second real peer
  nginx-light     # TCP relay and load tests: a real upstream / the machine's HTTP ceiling
  wrk             # load tests: the peer generator in bench/
  chromium        # the app: end-to-end tests driven by playwright-core (never a downloaded browser)
)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
