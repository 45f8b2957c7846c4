#!/usr/bin/env bash
# `s2lab play` under Xvfb, driven by xdotool like a player, then checked against headless runs:
# the title screen shows, Start starts the game, pause and frame advance step one frame, slots saved
# in the window load in `s2lab run` and continue to the same save state and picture, and a recording
# made in the window replays headless to the same state.
#
#   tools/play-xvfb-check.sh ROM [OUT]      (OUT default /tmp/s2lab-play-check; needs Xvfb, xdotool,
#                                            ImageMagick; S2LAB=path/to/s2lab, default target/release)
# Screenshots (the X screen and the window's own F12 PNGs), window titles and logs are kept in OUT.
set -euo pipefail
ROM=${1:?usage: tools/play-xvfb-check.sh ROM [OUT]}
D=${2:-/tmp/s2lab-play-check}
S2LAB=${S2LAB:-$(cd "$(dirname "$0")/.." && pwd)/target/release/s2lab}
DPY=${DPY:-:77}
rm -rf "$D"; mkdir -p "$D"
export XDG_CONFIG_HOME=$D/config XDG_DATA_HOME=$D/data
Xvfb "$DPY" -screen 0 1280x1024x24 >/dev/null 2>&1 &
XPID=$!
trap 'kill $XPID 2>/dev/null || true' EXIT
export DISPLAY=$DPY
sleep 1
"$S2LAB" play "$ROM" --scale 3 >"$D/play.log" 2>&1 &
PLAY=$!
WID=$(xdotool search --sync --name "s2lab" | head -1)
xdotool windowfocus "$WID" || true
# Keys are held across several polls of the window (a press and release in one poll is not seen).
press() { xdotool keydown "$1"; sleep "${2:-0.15}"; xdotool keyup "$1"; sleep 0.25; }
title() { xdotool getwindowname "$WID"; }
# The window's title shows the frame count: wait for frames, not seconds (a loaded machine may
# run the window below 60 frames per second).
frame() { local f; f=$(title | sed -n 's/.*| frame \([0-9]*\) |.*/\1/p'); echo "${f:-0}"; }
wait_frame() { while [ "$(frame)" -lt "$1" ]; do sleep 0.1; done; }
wait_frame 800                            # SEGA screen, then the title screen
import -window root "$D/1-title.png"; title >"$D/1-title.txt"
press Return 0.3                          # the title's menu
wait_frame 900
press Return 0.3                          # 1 PLAYER
wait_frame 1200
import -window root "$D/3-started.png"; title >"$D/3-started.txt"
press F1                                  # lab overlay
xdotool keydown Right; wait_frame 1320; xdotool keyup Right
press p                                   # pause
sleep 0.5; title >"$D/4-paused.txt"; import -window root "$D/4-paused-overlay.png"
press F12                                 # screenshot (frame N)
press F5                                  # slot 1 (frame N)
press n                                   # frame advance
sleep 0.3; title >"$D/5-advanced.txt"; import -window root "$D/5-advanced-overlay.png"
press F12                                 # screenshot (frame N+1)
press 2; press F5                         # slot 2 (frame N+1)
press F2                                  # record pad 1 from here
press p                                   # resume
xdotool keydown Right; sleep 1.5; title >"$D/6-recording.txt"
xdotool keydown s; sleep 0.3; xdotool keyup s; sleep 1; xdotool keyup Right
xdotool keydown Left; sleep 0.8; xdotool keyup Left
press p                                   # pause
press F2                                  # stop recording (same frame as the next save)
press 3; press F5                         # slot 3
press F12
import -window root "$D/7-end.png"; title >"$D/7-end.txt"
press Escape
wait $PLAY

cd "$D"
ST=$(ls -d data/s2lab/states/*); REC=$(ls data/s2lab/recordings/*.txt); N=$(sed -n 's/^# frames: //p' "$REC")
frame_of() { sed -n 's/.*PAUSED | frame \([0-9]*\) |.*/\1/p' "$1"; }
shot() { ls data/s2lab/screenshots/*-frame"$1"-*.png; }
F1=$(frame_of 4-paused.txt); F2=$(frame_of 5-advanced.txt); F3=$(frame_of 7-end.txt)
echo "window title at the title screen: $(cat 1-title.txt)"
echo "paused at frame $F1; one frame advance: frame $F2 (window title: $(cat 5-advanced.txt))"
[ "$F2" = $((F1 + 1)) ]
"$S2LAB" run "$ROM" --state "$ST/slot-1.state" --frames 1 --save-state adv.state --png 1:adv.png
cmp adv.state "$ST/slot-2.state"
echo "slot 1 + one headless frame: byte-identical to slot 2; picture differs from the F12 shot in $(compare -metric AE adv.png "$(shot "$F2")" null: 2>&1) pixels"
cmp "${REC%.txt}.state" "$ST/slot-2.state"
"$S2LAB" run "$ROM" --input "$REC" --load-state "${REC%.txt}.state" --frames "$N" --save-state end.state --png "$N:end.png"
cmp end.state "$ST/slot-3.state"
echo "recording ($N frames from slot 2's state) replayed headless: byte-identical to slot 3; picture differs from the F12 shot at frame $F3 in $(compare -metric AE end.png "$(shot "$F3")" null: 2>&1) pixels"
