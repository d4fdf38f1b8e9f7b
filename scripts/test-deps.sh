#!/usr/bin/env bash
# Makes sure the Go tests' real outside readers are here, from Debian's
# packages: GDAL (gdalinfo, gdallocationinfo) reads the ET0 grids the console
# writes as GeoTIFF; poppler (pdftotext, pdftoppm) the briefings' PDF;
# LibreOffice Calc their XLSX.
set -euo pipefail
need=()
command -v gdalinfo >/dev/null || need+=(gdal-bin)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
command -v soffice >/dev/null || need+=(libreoffice-calc-nogui)
# The briefings' PDF embeds this Chinese font (--briefing-font's default).
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing ${need[*]} for the Go tests"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null \
    || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null; }
else
  echo "The Go tests need: ${need[*]} (without them, with CI=true, they fail)"
  echo "Install them with:  sudo apt-get install -y --no-install-recommends ${need[*]}"
fi
