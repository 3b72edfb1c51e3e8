# camera-smoke: libcamera's cam lists the vimc camera and captures two frames from it.
# shellcheck shell=bash
# rig-timeout: 120
rig_camera_up
cam -l >"$RIG_OUT/list" 2>&1 || { cat "$RIG_OUT/list"; rig_fail "cam -l failed"; }
cat "$RIG_OUT/list"
rig_assert "cam -l lists a vimc camera" grep -q 'platform/vimc' "$RIG_OUT/list"
# vimc streams only with two or more requests queued: capture 2 frames (--capture=1 hangs).
(cd "$RIG_OUT" && timeout 60 cam -c 1 --capture=2 -s width=640,height=480 --file=frame-#.bin) >"$RIG_OUT/capture" 2>&1 \
    || { cat "$RIG_OUT/capture"; rig_fail "cam capture failed"; }
cat "$RIG_OUT/capture"
frames=("$RIG_OUT"/frame-*.bin)
rig_assert "two frames written (${#frames[@]})" test "${#frames[@]}" -eq 2
rig_assert "frames are not empty" test -s "${frames[0]}" -a -s "${frames[1]}"
