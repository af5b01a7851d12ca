#!/usr/bin/env bash
# Installs the system packages GPUCanvas builds and runs with, if any is missing (Debian/Ubuntu).
#   EGL + GLES 3 headers and loaders, Mesa's EGL driver and llvmpipe, libpng, libjpeg (libjpeg-turbo),
#   pkg-config; for text: FreeType, HarfBuzz, fontconfig, ICU (UAX #14 line breaking, UAX #9 bidi), the fonts the
#   engine's matching table names (Inter, Liberation, DejaVu, Noto, Noto Color Emoji, WenQuanYi Micro Hei for
#   CJK ideographs), hb-shape, which the text tests compare against, and unicode-data, whose LineBreakTest.txt,
#   BidiCharacterTest.txt and emoji-test.txt the Unicode conformance tests run; for animation export: ffmpeg (GIF, MP4,
#   WebM; ffprobe checks them in the tests) and Pillow (python3-pil), which reads every APNG frame back in the tests.
set -euo pipefail
packages=(pkg-config libegl-dev libgles-dev libpng-dev libjpeg62-turbo-dev libegl-mesa0 libgl1-mesa-dri
  libfreetype-dev libharfbuzz-dev libfontconfig-dev libicu-dev unicode-data fonts-liberation2 fonts-inter fonts-noto-core
  fonts-noto-color-emoji fonts-dejavu-core fonts-wqy-microhei libharfbuzz-bin
  fonts-materialdesignicons-webfont  # Image(systemName:)'s icon font (Material Design Icons, OFL)
  libcmark-dev  # CommonMark: the inline Markdown of Text literals
  libssl-dev  # libcrypto's SHA-256: the program-binary cache's keys and checksums
  libpolyclipping-dev  # Clipper: the path boolean operations (union, intersection, …)
  ffmpeg python3-pil)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "swift not found: install the Swift 6 toolchain (swift.org) first" >&2; exit 1; }
