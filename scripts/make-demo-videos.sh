#!/usr/bin/env bash
# Makes the demo seed's video clips, posters and captions (server/db/seed/demo/media/) once; the
# output is committed, so neither the app nor CI needs ffmpeg. Every picture is generated (a flat
# background, ffmpeg's testsrc2 pattern in a corner, the title and the current chapter drawn as
# text); nothing is downloaded. Needs ffmpeg with libvpx-vp9 and drawtext (libfreetype), and the
# DejaVu Sans font.
#
# Each chapter lasts 3 s (the last one to the clip's end, at most 20 s); the chapter titles and
# times here are the ones server/db/seed/demo/catalog.ts gives each video (a unit test checks the
# captions against the catalog).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=server/db/seed/demo/media
FONT=${FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
BOLD=${BOLD:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

ts() { printf '00:%02d.000' "$1"; }

# make <slug> <title> <chapter>... : a clip of min(3 × chapters, 20) seconds.
make() {
  local slug=$1 title=$2
  shift 2
  local n=$# total=$(($# * 3))
  ((total > 20)) && total=20
  printf '%s' "$title" >"$WORK/title.txt"
  local filters="[0:v][1:v]overlay=x=W-w-24:y=24[bg];[bg]drawtext=fontfile=$BOLD:textfile=$WORK/title.txt:fontsize=19:fontcolor=white:x=32:y=h/2-60"
  local vtt="WEBVTT"$'\n'
  local i=0
  for chapter in "$@"; do
    local from=$((i * 3)) to=$(((i + 1) * 3))
    ((i == n - 1)) && to=$total
    printf '%s' "$chapter" >"$WORK/c$i.txt"
    filters+=",drawtext=fontfile=$FONT:textfile=$WORK/c$i.txt:fontsize=22:fontcolor=0xfbbf24:x=32:y=h/2:enable='between(t,$from,$to)'"
    vtt+=$'\n'"$(ts "$from") --> $(ts "$to")"$'\n'"$chapter"$'\n'
    i=$((i + 1))
  done
  filters+=",drawtext=fontfile=$FONT:text='%{eif\:t\:d} s':fontsize=18:fontcolor=0x9ca3af:x=32:y=h-48"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "color=c=0x1e293b:s=640x360:r=24:d=$total" \
    -f lavfi -i "testsrc2=s=160x90:r=24:d=$total" \
    -filter_complex "$filters" \
    -c:v libvpx-vp9 -b:v 0 -crf 45 -row-mt 1 -deadline good -cpu-used 2 -g 48 -an \
    -t "$total" "$OUT/$slug.webm"
  ffmpeg -hide_banner -loglevel error -y -ss 1 -i "$OUT/$slug.webm" -frames:v 1 -q:v 6 "$OUT/$slug.jpg"
  printf '%s' "$vtt" >"$OUT/$slug.en.vtt"
}

make video-prompt-clinic "Prompt Clinic: Rewriting Five Everyday Prompts" \
  "Why rewrite instead of retry" "Prompt 1: the meeting summary" "Prompt 2: the customer reply" \
  "Prompt 3: the data question" "Prompt 4: the job description" "Prompt 5: the brainstorm" \
  "Recap and checklist"
make video-embeddings-explained "Embeddings, Visually Explained" \
  "Words as points in space" "Measuring similarity" "From words to whole passages" \
  "Semantic search in practice" "Where embeddings mislead"
make video-automating-a-weekly-report "Walkthrough: Automating a Weekly Status Report" \
  "The report we are automating" "Mapping the manual steps" "Gathering the data" \
  "Drafting the summary" "The approval step" "What we chose not to automate"
make video-coaching-conversations-about-ai "Coaching Conversations About AI at Work" \
  "Why these conversations matter" "The anxious team member" "The sceptic" \
  "The over-enthusiast" "Following up"
make video-context-windows-cost-latency "Explainer: Context Windows, Cost and Latency Trade-offs" \
  "Why context length keeps coming up" "What you pay for" "Latency and the first token" \
  "Does the model use all of it?" "Long context or retrieval"
ls -l "$OUT"
