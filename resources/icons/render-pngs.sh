#!/usr/bin/env bash
# Re-renders the committed hicolor PNGs from the SVG. Run after editing the SVG; the build itself never
# renders, so it needs no SVG tool (rsvg-convert from librsvg2-bin, or ImageMagick as a fallback).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
svg=io.github.buzz.Canvas.svg
for size in 16 22 24 32 48 64 128 256 512; do
    out="hicolor/${size}x${size}/apps/io.github.buzz.Canvas.png"
    mkdir -p "$(dirname "$out")"
    if command -v rsvg-convert >/dev/null; then
        rsvg-convert -w "$size" -h "$size" "$svg" -o "$out"
    else
        convert -background none -density 384 "$svg" -resize "${size}x${size}" "$out"
    fi
done
# Strip timestamps so re-rendering an unchanged SVG gives byte-identical files.
if command -v mogrify >/dev/null; then
    mogrify -strip hicolor/*/apps/io.github.buzz.Canvas.png
fi
