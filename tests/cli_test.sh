#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tread command's output says what happened: failures read as failures with a count, values carry labels
# and units, non-scene JSON in a suite folder is skipped (a broken scene still fails), traces name ground
# states, and plots have the views and legend the scene asks for.
#   tests/cli_test.sh TREAD_BINARY SOURCE_DIR WORK_DIR
set -u
tread="$1"; src="$2"; work="$3"
data="$src/tests/data/cli"
mkdir -p "$work"
failures=0
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }
has() { grep -qF -- "$2" <<<"$1" || fail "$3: output lacks '$2'"$'\n'"$1"; }
lacks() { ! grep -qF -- "$2" <<<"$1" || fail "$3: output has '$2'"$'\n'"$1"; }

# A failed check: FAIL once with its name, a count at the end, exit 1.
out=$("$tread" run "$data/failing.json" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "run failing.json: exit $rc, expected 1"
has "$out" "FAIL  walks five metres" "run failing.json"
has "$out" "1 of 4 checks failed" "run failing.json"
lacks "$out" "FAILED" "run failing.json"
has "$out" "advance along x" "run failing.json"
has "$out" "expected >= 5 m" "run failing.json"
rm -rf "$work/mixed" && mkdir -p "$work/mixed" && cp "$data/failing.json" "$data/suite/walk.json" "$work/mixed/"
out=$("$tread" suite "$work/mixed" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "suite with a failing scene: exit $rc, expected 1"
lacks "$out" "FAIL FAILED" "suite with a failing scene"
has "$out" "FAIL walks five metres: advance along x" "suite with a failing scene"
has "$out" "1 of 2 runs failed" "suite with a failing scene"

# A failed library call fails the scene, naming the call, the character, the frame, the time, the error code and
# the library's message (a 200 s fall passes 1000 m/s at t = 101.9 s; the tool used to freeze it and pass).
out=$("$tread" run "$data/fall-200s.json" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "run fall-200s.json: exit $rc, expected 1"$'\n'"$out"
has "$out" "stopped after 6115 of 12000 frames" "run fall-200s.json"
has "$out" "FAIL  faller: library call" "run fall-200s.json"
has "$out" "tread_character_move_with failed in frame 6116 (t = 101.917 s): TREAD_ERR_INVALID_ARGUMENT: velocity = (0, -1000.02, 0) is longer than 1000 m/s" "run fall-200s.json"
has "$out" "1 expectation not evaluated" "run fall-200s.json"
lacks "$out" "pass  fell" "run fall-200s.json"
out=$("$tread" run "$data/fall-200s.json" --json 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "run fall-200s.json --json: exit $rc, expected 1"
has "$out" '"passed":	false' "run fall-200s.json --json"
has "$out" '"character":	"faller"' "run fall-200s.json --json"
has "$out" '"frame":	6116' "run fall-200s.json --json"
has "$out" '"call":	"tread_character_move_with"' "run fall-200s.json --json"
has "$out" '"code":	"TREAD_ERR_INVALID_ARGUMENT"' "run fall-200s.json --json"
"$tread" run "$data/fall-200s.json" --trace "$work/fall.csv" --plot "$work/fall.svg" >/dev/null 2>&1
[ "$(tail -n +2 "$work/fall.csv" | wc -l)" -eq 6115 ] || fail "fall-200s trace: $(tail -n +2 "$work/fall.csv" | wc -l) rows, expected the 6115 frames that ran"
! grep -qi "nan\|inf" "$work/fall.svg" || fail "fall-200s plot holds NaN or Inf"
rm -rf "$work/falls" && mkdir -p "$work/falls" && cp "$data/fall-200s.json" "$data/suite/walk.json" "$work/falls/"
out=$("$tread" suite "$work/falls" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "suite with the fall: exit $rc, expected 1"$'\n'"$out"
has "$out" "FAIL faller: library call: tread_character_move_with failed at 101.917 s" "suite with the fall"

# Hostile scene files are bad input (exit 2) with a message naming the file, the JSON path and what is wrong.
hostile() {
    local out rc
    out=$("$tread" run "$data/hostile/$1" 2>&1); rc=$?
    [ "$rc" -eq 2 ] || fail "run hostile/$1: exit $rc, expected 2"$'\n'"$out"
    has "$out" "hostile/$1: $2" "run hostile/$1"
}
hostile too-fast.json "characters[0].input[0].speed: 2000 m/s is refused by tread_character_move: TREAD_ERR_INVALID_ARGUMENT"
hostile nul-name.json 'name: "a..." holds a NUL character (\u0000)'
# Files past their caps are refused by their size, before they are read: a scene file (a 1.2 GB parse at 48 MB
# before the cap) and a mesh file (assimp reads all of it). Sparse files: no disk used.
truncate -s 9000000 "$work/huge.json"
out=$("$tread" run "$work/huge.json" 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "run huge.json: exit $rc, expected 2"$'\n'"$out"
has "$out" "huge.json: is 9000000 bytes; at most 8388608" "run huge.json"
truncate -s 70000000 "$work/huge.obj"
printf '{"duration": 1, "bodies": [{"type": "mesh", "file": "huge.obj"}], "characters": [{"start": [0, 0, 0], "input": []}]}' > "$work/huge-mesh.json"
out=$("$tread" run "$work/huge-mesh.json" 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "run huge-mesh.json: exit $rc, expected 2"$'\n'"$out"
has "$out" 'huge-mesh.json: bodies[0].file: "huge.obj" is 70000000 bytes; at most 67108864' "run huge-mesh.json"
rm -f "$work/huge.json" "$work/huge.obj"
# Every count within its cap, the work over SCENE_MAX_WORK: 65,536 coincident boxes and one character for an hour
# (7.5 h of running before the cap) is refused at load, naming the product and the cap.
awk 'BEGIN { printf "{\"duration\": 3600, \"bodies\": ["; for (i = 0; i < 65536; ++i) printf "%s{\"type\": \"box\", \"min\": [0, -1, 0], \"max\": [1, 0, 1]}", i ? "," : "";
             printf "], \"characters\": [{\"start\": [0, 0, 0], \"input\": []}]}" }' > "$work/coincident.json"
out=$("$tread" run "$work/coincident.json" 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "run coincident.json: exit $rc, expected 2"$'\n'"$out"
has "$out" "coincident.json: 65536 bodies x 1 characters x 216000 frames = 1.42e+10, over the cap of 1e+09 on bodies x characters x frames" "run coincident.json"
rm -f "$work/coincident.json"

# Values carry labels and units.
out=$("$tread" run "$src/scenes/course/S07-ramp-crest.json" 2>&1)
has "$out" "expected <= 2.02 m" "run S07"
has "$out" "expected >= 95%" "run S07"
out=$("$tread" suite "$src/scenes/course" 2>&1)
has "$out" "height over the plateau at y 2: max y 2.0020 m" "suite course"
has "$out" "min speed 4.0000 m/s" "suite course"

# Non-scene JSON is skipped; a broken scene is still bad input.
out=$("$tread" suite "$data/suite" 2>&1); rc=$?
[ "$rc" -eq 0 ] || fail "suite with package.json: exit $rc, expected 0"$'\n'"$out"
has "$out" "skip  $data/suite/package.json: not a scene file" "suite with package.json"
has "$out" "0 of 1 runs failed (1 file skipped: not scenes)" "suite with package.json"
out=$("$tread" suite "$data/broken" 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "suite with a broken scene: exit $rc, expected 2"$'\n'"$out"
has "$out" "JSON syntax error" "suite with a broken scene"

# Trace: ground states by name, the documented header.
"$tread" run "$data/suite/walk.json" --trace "$work/walk.csv" --plot "$work/walk.svg" >/dev/null 2>&1 || fail "run walk.json"
head -1 "$work/walk.csv" | grep -qx "frame,t,character,x,y,z,vx,vy,vz,ground,stepped,camera,penetration,crushed" || fail "trace header: $(head -1 "$work/walk.csv")"
grep -q ",walker,.*,on_ground," "$work/walk.csv" || fail "trace: no on_ground row"
! cut -d, -f10 "$work/walk.csv" | tail -n +2 | grep -qv '^[a-z_]*$' || fail "trace: a ground column that is not a name"

# Plots: "plot": {"view": "top"} draws the top view only; by default both views; always a legend.
svg=$(cat "$work/walk.svg")
has "$svg" 'id="top-view"' "walk.svg"
lacks "$svg" 'id="side-view"' "walk.svg"
has "$svg" 'id="legend"' "walk.svg"
"$tread" run "$src/scenes/course/S08-wall-slide.json" --plot "$work/S08.svg" >/dev/null 2>&1 || fail "run S08 --plot"
svg=$(cat "$work/S08.svg")
has "$svg" 'id="front-view"' "S08.svg"   # "plot": {"view": ["top", "front"]}
has "$svg" 'id="top-view"' "S08.svg"
lacks "$svg" 'id="side-view"' "S08.svg"
has "$svg" 'id="legend"' "S08.svg"
for item in "feet path" "start" "end" "bodies" "in the air" "on steep ground"; do has "$svg" ">$item" "S08.svg legend"; done
# A view that does not exist is an error naming the place in the file.
sed 's/"plot": {"view": "top"}/"plot": {"view": ["top", "sideways"]}/' "$data/suite/walk.json" > "$work/bad-view.json"
out=$("$tread" run "$work/bad-view.json" 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "run with an unknown view: exit $rc, expected 2"$'\n'"$out"
has "$out" "plot.view[1]" "run with an unknown view"

# Moving bodies: a lift scene passes (its rider is carried); the
# trace has the moving body's columns and the plot draws where it went.
out=$("$tread" run "$src/scenes/moving/lift-stop-and-go.json" --trace "$work/lift.csv" --plot "$work/lift.svg" 2>&1); rc=$?
[ "$rc" -eq 0 ] || fail "run lift-stop-and-go.json: exit $rc, expected 0"$'\n'"$out"
head -1 "$work/lift.csv" | grep -q ",penetration,crushed,bodies\[1\].x,bodies\[1\].y,bodies\[1\].z,bodies\[1\].qx," || fail "moving trace header: $(head -1 "$work/lift.csv")"
svg=$(cat "$work/lift.svg")
for item in "moving body at the end" "its path"; do has "$svg" ">$item" "lift.svg legend"; done
out=$("$tread" run "$src/scenes/moving/lift-stop-and-go.json" --json 2>&1)
has "$out" '"pending":' "run lift-stop-and-go.json --json"

# A crusher: the trace's crushed column says which frames the move reported crushed; the run passes.
out=$("$tread" run "$src/scenes/moving/crusher-5ms.json" --trace "$work/crusher.csv" 2>&1); rc=$?
[ "$rc" -eq 0 ] || fail "run crusher-5ms.json: exit $rc, expected 0"$'\n'"$out"
has "$out" "reported crushed in" "run crusher-5ms.json"
[ "$(awk -F, 'NR > 1 && $14 == 1' "$work/crusher.csv" | wc -l)" -ge 3 ] || fail "crusher trace: fewer than 3 crushed rows"
# A pending check that fails as expected shows as xfail in the suite and in the run.
out=$("$tread" run "$src/scenes/moving/seesaw.json" 2>&1); rc=$?
[ "$rc" -eq 0 ] || fail "run seesaw.json: exit $rc, expected 0"$'\n'"$out"
has "$out" "xfail box back after a cycle" "run seesaw.json"

# The lift family: listed by name, written by tread gen, unknown names refused with the list.
out=$("$tread" matrix --families lifts --list 2>&1)
has "$out" "matrix: 240 cases (lifts 240) x 2 up vectors x 4 strategies = 1920 runs" "matrix --families lifts --list"
has "$out" "lift-reverse-v4-sphere-120hz" "matrix --families lifts --list"
rm -rf "$work/lifts"
out=$("$tread" gen "$work/lifts" --family lifts --rate 30 2>&1)
has "$out" "wrote 60 scene files" "gen --family lifts"
out=$("$tread" matrix --families lift 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "matrix --families lift: exit $rc, expected 2"
has "$out" "unknown family 'lift' (known: stairs slopes ledges steps lifts max_slope curbs tilted_treads micro_steps angled_stairs)" "matrix --families lift"

[ "$failures" -eq 0 ] && echo "cli_test: all checks passed"
exit $((failures > 0))
