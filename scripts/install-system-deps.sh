#!/usr/bin/env bash
# Installs, with apt-get (Debian or Ubuntu), the system tools the test suites need and that are
# missing, as far as apt can give them (README "Prerequisites"):
#   Python 3 with venv and pip (python3, python3-venv, python3-pip)  Python package tests
#   Node.js >= 20 with npm (nodejs, npm)                              Node package tests
#   Java 17 (openjdk-17-jre-headless)                                 Kotlin tests on the JVM, Spark tests
#   poppler-utils (pdftotext, pdftoppm), qpdf                          PDF checks, encrypted test PDFs
#   libjna-java                                                       Kotlin tests (JNA)
#   postgresql                                                        service tests
#   chromium                                                          portal browser tests
#   curl, jq                                                          the documents' service examples
# Rust is not an apt package here: install it with rustup (https://rustup.rs), 1.94 or newer.
# Needs root (as on the CI machine) or sudo. Exits non-zero, saying what to do, when something
# cannot be installed this way (Debian bookworm's own nodejs is 18: too old).
set -euo pipefail
need=()
problems=()

# Python 3 with a working venv and pip (a pyenv or other Python on PATH counts).
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  need+=(python3 python3-venv python3-pip)
fi
# Spark 4 (alama.spark tests) needs Java 17 or newer; Kotlin on the JVM is happy with it too.
java_major() { java -version 2>&1 | awk -F'"' 'NR == 1 {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1])}'; }
[ "$(java_major 2>/dev/null || echo 0)" -ge 17 ] 2>/dev/null || need+=(openjdk-17-jre-headless)
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v qpdf >/dev/null || need+=(qpdf)
[ -f /usr/share/java/jna.jar ] || need+=(libjna-java)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
# The service examples of README.md and server/README.md (scripts/test-docs.sh runs them).
command -v curl >/dev/null || need+=(curl)
command -v jq >/dev/null || need+=(jq)
# The metrics test scrapes the service with Debian's real Prometheus and checks its exposition,
# the deploy/ configuration and alert rules with promtool.
{ command -v promtool >/dev/null && command -v prometheus >/dev/null; } || need+=(prometheus)

node_major() { node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/'; }
node_ok() { [ "$(node_major || echo 0)" -ge 20 ] 2>/dev/null && command -v npm >/dev/null; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! node_ok; then
  # Only when the distribution's candidate is Node 20 or newer (Debian trixie, Ubuntu 24.04, or
  # an apt source such as NodeSource already configured).
  candidate="$(apt-cache policy nodejs 2>/dev/null | awk '/Candidate:/ {print $2}')"
  if [ "$(echo "${candidate:-0}" | sed -E 's/^([0-9]+:)?([0-9]+).*/\2/')" -ge 20 ] 2>/dev/null; then
    need+=(nodejs)
    if ! command -v npm >/dev/null; then need+=(npm); fi
  else
    problems+=("Node.js 20 or newer with npm: apt offers '${candidate:-none}'; install it from https://nodejs.org or an apt source such as NodeSource, then rerun")
  fi
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "installing with apt-get: ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ${#problems[@]} -gt 0 ]; then
  printf 'missing, not installable with apt-get here:\n' >&2
  printf '  - %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "system packages present: python3 $(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'), node $(node --version), java $(java -version 2>&1 | awk -F'"' 'NR == 1 {print $2}')"
