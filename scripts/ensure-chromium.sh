#!/usr/bin/env bash
# Make sure headless Chromium is there for the browser test of report.html
# (sim/report/html.browser.test.ts, which uses /usr/bin/chromium or $CHROMIUM_PATH).
# Idempotent: does nothing when it is installed. As root on Debian/Ubuntu it installs Debian's
# `chromium` package with apt-get; otherwise it says what to do and exits 1.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  echo "chromium: $CHROMIUM is installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium: not found at $CHROMIUM; installing Debian's chromium package (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  log="$(mktemp)"
  if apt-get update -qq >"$log" 2>&1 && apt-get install -y -qq --no-install-recommends chromium >>"$log" 2>&1; then
    rm -f "$log"
  else
    echo "chromium: apt-get failed; its output:" >&2
    tail -n 30 "$log" >&2
    rm -f "$log"
    exit 1
  fi
  if [ -x "$CHROMIUM" ]; then
    echo "chromium: installed at $CHROMIUM"
    exit 0
  fi
  echo "chromium: the package installed but $CHROMIUM is still missing; set CHROMIUM_PATH to the binary" >&2
  exit 1
fi

cat >&2 <<MSG
chromium: not found at $CHROMIUM, and this script can only install it as root with apt-get.
Install it yourself, e.g.
  sudo apt-get install -y chromium        (Debian, Ubuntu)
or point CHROMIUM_PATH at a Chromium or Chrome binary. The browser test of report.html needs it.
MSG
exit 1
