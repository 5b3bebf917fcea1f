#!/usr/bin/env bash
# scripts/screenshots.sh OUT — the report as people see it, on four corpora:
# a generated Wikipedia-like corpus, the real Anarchism history, a Yelp tips
# file and a real git history (files per path). Runs `revisit run` on each,
# then headless Chromium takes full-length screenshots, cut into 1400×1500
# tiles (OUT/<name>-NN.png) for an image viewer. Needs chromium and
# ImageMagick's convert (Debian: chromium imagemagick) and the real data
# (../shared/data/real or $REVISIT_REAL_DATA).
set -euo pipefail
out=${1:?usage: screenshots.sh OUT}
here=$(cd "$(dirname "$0")/.." && pwd)
real=${REVISIT_REAL_DATA:-$here/../shared/data/real}
bin=$here/bin/revisit
convert=$(command -v magick || command -v convert-im6.q16 || command -v convert)
make -C "$here" -s build
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" -q generate --pages 300 --span 2y --unit h --seed 1 \
  --model '0.5*pareto:1.5,{lognormal:4,1.2}' --model '0.5*exp:{lognormal:-4,1}' \
  -o "$work/gen-stub-meta-history.xml.gz"
"$bin" -q run "$work/gen-stub-meta-history.xml.gz" -o "$work/generated" >/dev/null
"$bin" -q run "$real/wikipedia/maribelacosta__wikiwho/large.xml.lzma" -o "$work/anarchism" >/dev/null
"$bin" -q run "$real/yelp/shenyy__Resturants/yelp_academic_dataset_tip.json" -o "$work/yelp" >/dev/null
"$bin" -q run "$real"/other/simonw__help-scraper/*.csv.gz --id path --time commit_time_utc -o "$work/git" >/dev/null

for name in generated anarchism yelp git; do
  shot=$out/$name-full.png
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1400,16000 --screenshot="$shot" "file://$work/$name/report/index.html" 2>/dev/null
  "$convert" "$shot" -trim +repage -crop 1400x1500 +repage "$out/$name-%02d.png"
  rm -f "$shot"
  echo "$name: $(ls "$out"/"$name"-*.png | wc -l) tiles"
done
