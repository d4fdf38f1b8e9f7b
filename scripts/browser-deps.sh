#!/usr/bin/env bash
# Makes sure the browser tests can run: Debian's Chromium (Playwright's own
# browser download cannot work offline) and a CJK font, without which Chinese
# renders as boxes in screenshots.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -qi 'wenquanyi\|wqy' || need+=(fonts-wqy-microhei)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing ${need[*]} for the browser tests"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null \
    || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null; }
else
  echo "The browser tests need: ${need[*]}"
  echo "Install them with:  sudo apt-get install -y --no-install-recommends ${need[*]}"
  exit 1
fi
