#!/usr/bin/env bash
# Debian packages the test suites use: poppler-utils (pdftoppm/pdftotext for PDF checks),
# qpdf (encrypted test PDFs), libjna-java (Kotlin tests), postgresql (service tests).
# Installs only what is missing; needs root (as on the CI machine) or sudo.
set -euo pipefail
need=()
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v qpdf >/dev/null || need+=(qpdf)
[ -f /usr/share/java/jna.jar ] || need+=(libjna-java)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "system packages present"
