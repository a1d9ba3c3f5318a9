#!/usr/bin/env bash
# Debian packages CampusWatch needs beyond npm: Chromium (browser fetching and browser tests),
# CJK fonts (so Chinese renders in screenshots), tesseract with Chinese (OCR of post images) and
# the PostgreSQL server (the test suite's second run; scale-out). Installs them only when missing and only
# when we can (root with apt-get); otherwise says what is missing and carries on.
set -uo pipefail
need=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need+=(fonts-noto-cjk)
tesseract --list-langs 2>/dev/null | grep -q chi_sim || need+=(tesseract-ocr tesseract-ocr-chi-sim)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "installing Debian packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 || echo "warning: could not install ${need[*]}" >&2
else
  echo "warning: missing ${need[*]} (install with: sudo apt-get install ${need[*]})" >&2
fi
exit 0
