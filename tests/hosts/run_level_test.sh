#!/bin/bash
# run_level end to end: output lines, episodes, PNGs, path resolution,
# determinism and errors. $1 is the run_level binary.
set -euo pipefail

RUN_LEVEL="$(pwd)/$1"
OUT="${TEST_TMPDIR:-/tmp}/run_level_test"
rm -rf "$OUT"
mkdir -p "$OUT"

fail() {
  echo "FAIL: $*" >&2
  for file in "$OUT"/stdout "$OUT"/stderr; do
    [[ -f "$file" ]] && { echo "--- $file" >&2; cat "$file" >&2; }
  done
  exit 1
}

# Runs run_level with "$@", stdout and stderr to $OUT/stdout, $OUT/stderr.
run() {
  "$RUN_LEVEL" "$@" >"$OUT/stdout" 2>"$OUT/stderr"
}

expect_line() {  # extended regex matching a whole stdout line
  grep -Eq "^$1\$" "$OUT/stdout" || fail "no stdout line matching '$1'"
}

# A PNG's signature and its IHDR width and height (big-endian at 16, 20).
expect_png() {  # path width height
  [[ -f "$1" ]] || fail "$1 was not written"
  local signature size
  signature="$(od -An -tx1 -N8 "$1" | tr -d ' \n')"
  [[ "$signature" == "89504e470d0a1a0a" ]] || fail "$1 is not a PNG ($signature)"
  size="$(od -An -tu1 -j16 -N8 "$1" | tr -s ' ' | sed 's/^ //')"
  [[ "$size" == "0 0 0 $2 0 0 0 $3" ]] || fail "$1 is not $2x$3 (IHDR bytes $size)"
}

NUMBER='-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?'

# Half-second episodes (30 frames at 60 fps): 120 steps end four of them.
run --level=demo_maze --steps=120 --seed=3 --width=32 --height=24 --agent=random \
    --setting=episodeLengthSeconds=0.5 --png="$OUT/frame.png" || fail "run_level failed"
for episode in 0 1 2 3; do
  expect_line "episode $episode return $NUMBER steps 30 interrupted"
done
[[ "$(grep -c '^episode ' "$OUT/stdout")" == 4 ]] || fail "expected 4 episode lines"
expect_line "steps 120 seconds $NUMBER steps_per_second $NUMBER frame_buffers_allocated [0-9]+"
# Nobody retains frames: the pool recycles a handful of buffers, not one a step.
buffers="$(sed -nE 's/.*frame_buffers_allocated ([0-9]+)$/\1/p' "$OUT/stdout")"
(( buffers <= 4 )) || fail "$buffers frame buffers allocated for 120 steps"
expect_line "wrote $OUT/frame.png 32x24"
expect_line "wrote $OUT/frame_top_down.png 32x24"
expect_png "$OUT/frame.png" 32 24
expect_png "$OUT/frame_top_down.png" 32 24
# Not a terminal: plain progress lines, ending with the last step.
grep -q '^progress 120/120 ' "$OUT/stderr" || fail "no final progress line"

# The same seed plays the same episodes.
cp "$OUT/stdout" "$OUT/first"
run --level=demo_maze --steps=120 --seed=3 --width=32 --height=24 --agent=random \
    --setting=episodeLengthSeconds=0.5 || fail "second run failed"
diff <(grep '^episode' "$OUT/first") <(grep '^episode' "$OUT/stdout") >/dev/null ||
  fail "the same seed gave different episodes"

# --episodes stops early; the forward agent; relative paths resolve against
# BUILD_WORKING_DIRECTORY, as under `bazel run`.
mkdir -p "$OUT/workdir/shots"
BUILD_WORKING_DIRECTORY="$OUT/workdir" run --level=demo_maze --steps=1000 --episodes=1 \
    --width=20 --height=10 --agent=forward --setting=episodeLengthSeconds=0.25 \
    --png=shots/last.png --top_down_png=shots/map.png || fail "run with --episodes failed"
expect_line "episode 0 return $NUMBER steps 15 interrupted"
expect_line "steps 15 seconds $NUMBER steps_per_second $NUMBER frame_buffers_allocated [0-9]+"
expect_png "$OUT/workdir/shots/last.png" 20 10
expect_png "$OUT/workdir/shots/map.png" 20 10

# A level's own DEBUG.CAMERA.TOP_DOWN replaces the maze's; planar 3 x H x W,
# as DeepMind Lab's debug_observations declares it, is written as an image.
cat > "$OUT/planar.lua" <<'LUA'
local tensor = require 'dmlab.system.tensor'
local api = {}
function api:nextMap() return "*****\n*P  *\n*****\n" end
function api:customObservationSpec()
  return {{name = 'DEBUG.CAMERA.TOP_DOWN', type = 'Bytes', shape = {3, 6, 8}}}
end
function api:customObservation(name) return tensor.ByteTensor(3, 6, 8):fill(200) end
return api
LUA
run --level="$OUT/planar.lua" --steps=2 --width=16 --height=12 \
    --top_down_png="$OUT/planar_top_down.png" || fail "the planar top-down run failed"
expect_line "wrote $OUT/planar_top_down.png 8x6"
expect_png "$OUT/planar_top_down.png" 8 6

# The contact sheet and the GIF: 16 frames of 32 x 24 in 4 rows and 4
# columns with 2-pixel gaps (138 x 106), the top-down view as tall as the
# grid (102 square) beside it; the first episode (30 steps, every 6th:
# steps 0 to 30, 6 frames), relative paths printed absolute.
BUILD_WORKING_DIRECTORY="$OUT/workdir" run --level=demo_maze --steps=90 --width=32 --height=24 \
    --agent=forward --setting=episodeLengthSeconds=0.5 --contact_sheet=sheet.png \
    --gif=shots/episode.gif || fail "run with --contact_sheet and --gif failed"
expect_line "wrote $OUT/workdir/sheet.png 242x106"
expect_png "$OUT/workdir/sheet.png" 242 106
expect_line "wrote $OUT/workdir/shots/episode.gif 32x24 6 frames"
[[ "$(head -c 6 "$OUT/workdir/shots/episode.gif")" == "GIF89a" ]] || fail "episode.gif is not a GIF89a"
# A MuJoCo level has no top-down view: the grid alone.
run --level=cartpole_balance --steps=20 --agent=zero --width=32 --height=24 \
    --contact_sheet="$OUT/mujoco_sheet.png" || fail "MuJoCo contact sheet failed"
expect_png "$OUT/mujoco_sheet.png" 138 106

# A MuJoCo level: the zero agent (passive dynamics) and random actions,
# frames written every 10 steps, the episode's own time limit.
run --level=cartpole_swingup --steps=1000 --agent=zero --width=32 --height=24 \
    --frames="$OUT/frames" --frame_every=250 || fail "MuJoCo run failed"
expect_line "episode 0 return $NUMBER steps 1000 interrupted"
for step in 000000 000250 000500 000750 001000; do
  expect_png "$OUT/frames/frame_$step.png" 32 24
done
[[ "$(ls "$OUT/frames" | wc -l)" == 5 ]] || fail "expected 5 frames"
run --level=pendulum_swingup --steps=50 --agent=random || fail "MuJoCo random run failed"
expect_line "steps 50 seconds $NUMBER steps_per_second $NUMBER frame_buffers_allocated [0-9]+"
expect_error() {  # pattern, then run_level's arguments
  local pattern="$1"
  shift
  if run "$@"; then fail "run_level $* succeeded"; fi
  grep -q -- "$pattern" "$OUT/stderr" || fail "stderr of run_level $* lacks '$pattern'"
}
expect_error "offers no agents of its own" --level=cartpole_balance --agent=forward --steps=1
expect_error "--frame_every must be >= 1" --frame_every=0 --frames="$OUT/f" --steps=1
expect_error "--gif_every must be >= 1" --gif_every=0 --gif="$OUT/g.gif" --steps=1
expect_error "no_such_dir/g.gif: cannot open" --gif="$OUT/no_such_dir/g.gif" --steps=1

# Errors exit 1 with a message naming the problem.
expect_error "'bogus'" --agent=bogus --steps=1
expect_error "no_such_level" --level=no_such_level --steps=1
expect_error "width" --width=0 --steps=1
expect_error "--setting 'oops' is not key=value" --setting=oops --steps=1
expect_error "no_such_dir" --steps=1 --png="$OUT/no_such_dir/x.png"

echo PASS
