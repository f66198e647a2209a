#!/usr/bin/env bash
# Runs the Tabula app under a virtual X server, clicks Home -> New game -> a move on the board, and saves
# screenshots into the folder given as the first argument (default: target/gui-smoke).
# Skipped with a message where Xvfb or xdotool is missing.
#   scripts/gui-smoke.sh [out-dir]      PROFILE=release scripts/gui-smoke.sh   to use a release build
set -euo pipefail

out="${1:-target/gui-smoke}"
profile="${PROFILE:-debug}"
cd "${0%/*}/.."

for tool in Xvfb xdotool import xdpyinfo; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "gui-smoke: skipped, $tool is not installed (apt-get install -y xvfb xdotool imagemagick x11-utils)"
        exit 0
    fi
done

if [ "$profile" = release ]; then cargo build --release -p tabula-gui; else cargo build -p tabula-gui; fi
bin="target/$profile/tabula"
mkdir -p "$out"

display=":$(( 90 + RANDOM % 100 ))"
home_dir="$(mktemp -d)"
runtime_dir="$(mktemp -d)"
Xvfb "$display" -screen 0 1280x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
app_pid=""
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
    kill "$xvfb_pid" 2>/dev/null || true
    rm -rf "$home_dir" "$runtime_dir"
}
trap cleanup EXIT

for _ in $(seq 50); do
    DISPLAY="$display" xdpyinfo >/dev/null 2>&1 && break
    sleep 0.1
done

# A private home keeps the user's settings, statistics and saves out of the test.
DISPLAY="$display" HOME="$home_dir" XDG_CONFIG_HOME="$home_dir/config" XDG_DATA_HOME="$home_dir/data" \
    XDG_RUNTIME_DIR="$runtime_dir" "$bin" >"$out/app.log" 2>&1 &
app_pid=$!

wid=""
for _ in $(seq 100); do
    wid="$(DISPLAY="$display" xdotool search --onlyvisible --name Tabula 2>/dev/null | head -n1 || true)"
    [ -n "$wid" ] && break
    sleep 0.2
done
if [ -z "$wid" ]; then
    echo "gui-smoke: the Tabula window did not appear; see $out/app.log" >&2
    exit 1
fi

# Window-relative coordinates of the controls at the default window size (1180x820).
shot() { sleep "${2:-2}"; DISPLAY="$display" import -window root "$out/$1.png"; echo "gui-smoke: $out/$1.png"; }
click() {
    DISPLAY="$display" xdotool mousemove --window "$wid" "$1" "$2"
    sleep 0.3
    DISPLAY="$display" xdotool click 1
}
move() { DISPLAY="$display" xdotool mousemove --window "$wid" "$1" "$2"; }

# Debug builds render slowly; the pauses leave room for that.
shot 1-home 2
click "${PLAY_OTHELLO_X:-595}" "${PLAY_OTHELLO_Y:-641}"
shot 2-new-game 2.5
click "${START_X:-220}" "${START_Y:-597}"
shot 3-play-start 3
title="$(DISPLAY="$display" xdotool getwindowname "$wid")"
if [ "$title" != "Tabula — Othello" ]; then
    echo "gui-smoke: expected the Othello play screen, the window is titled '$title'" >&2
    exit 1
fi
move "${MOVE_X:-543}" "${MOVE_Y:-451}"
shot 4-play-hover 1.5
click "${MOVE_X:-543}" "${MOVE_Y:-451}"
shot 5-play-answered 5
if cmp -s "$out/4-play-hover.png" "$out/5-play-answered.png"; then
    echo "gui-smoke: the board did not change after the click" >&2
    exit 1
fi
if ! kill -0 "$app_pid" 2>/dev/null; then
    echo "gui-smoke: the app exited early; see $out/app.log" >&2
    exit 1
fi
echo "gui-smoke: done"
