# power-cut: the photo store on ext4 (as on a Pi's SD card) behind dm-log-writes while the real booth (gpio-sim
# button and knob, vimc camera) saves photos, takes a retake, changes the knob's choices and exports to a stick
# (which rewrites the index); every write and flush the disk saw is logged, with a mark whenever the booth reported
# a photo saved or discarded. lib/logwrites.py first checks the log is whole (the kernel's end mark: the log device
# never filled; a mark for every acknowledgement in the booth's events), then rebuilds the disk at every flush point,
# at every acknowledgement's mark and at random cuts between (the writes after the cut dropped) and checks each: fsck
# repairs all, every acknowledged photo is there and whole, no final photo name holds a partial file, index.txt is
# whole and lists every acknowledged photo with the CRC-32 it was saved with, discarded once its retake was
# acknowledged (as it is on the card, never rebuilt), state.toml is absent or whole, and on a sample of the states the booth starts and lists
# them all. The replay runs on the host (lib/powercut.sh pc_check), its reading checked against the kernel's view.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 900
# shellcheck source=SCRIPTDIR/../lib/powercut.sh disable=SC1091
source "$RIG_DIR/lib/powercut.sh"
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
booth=$(rig_need_booth)
mkdir -p "$PC_DIR"
disk=$PC_DIR/sd.img
rm -f "$disk" && truncate -s 48M "$disk"
# No discards (a loop device would turn them into holes the replay zeroes anyway) and every inode table written
# now: nothing the file system does later on its own but what the booth makes it do.
mkfs.ext4 -q -F -b 4096 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$disk" || rig_fail "mkfs.ext4 failed"
dev=$(pc_logged_disk store "$disk" 256)
mnt=$PC_DIR/sd
mkdir -p "$mnt"
rig_modprobe ext4
mount -t ext4 -o noatime "$dev" "$mnt" || rig_fail "mount $dev failed"

rig_camera_up
rig_modprobe vfat nls_cp437 nls_ascii
chip=$(rig_booth_chip)
rig_booth_config "$RIG_OUT/booth.toml" booth.photos_dir="\"$mnt/photos\"" booth.state_file="\"$mnt/state.toml\"" \
    booth.review_window=30.0 booth.free_space_reserve_mb=1 countdown.default_delay=1.5 gpio.chip="\"$chip\"" \
    countdown.delay_mode_timeout=30.0 \
    camera.id='"0"' camera.width=648 camera.height=486 export.media_root="\"$USB_MEDIA\"" sound.favourites='["Pop", "Bell", "Chime"]' \
    sound.default='"Pop"'
mkdir -p "$USB_MEDIA"
RIG_BOOTH_EVENTS=$RIG_OUT/events.jsonl
: >"$RIG_BOOTH_EVENTS"
pc_marker_start "$RIG_BOOTH_EVENTS" store
"$booth" run --config "$RIG_OUT/booth.toml" --events-json "$RIG_BOOTH_EVENTS" --simulated-sound \
    >"$RIG_OUT/booth.out" 2>"$RIG_OUT/booth.err" &
RIG_BOOTH_PID=$!
rig_booth_wait 60 1 '"type":"ready"'
rig_assert "the booth uses vimc" grep -q '"camera":"libcamera:platform/vimc' "$RIG_BOOTH_EVENTS"
rig_gpio_wait_requested booth button

# pc_shoot N: one press, then waits for the Nth photoSaved and idle again.
pc_shoot() {
    rig_booth_click "$1" '"type":"photoSaved"'
    rig_wait_for 30 "idle after photo $1" rig_booth_idle
}
pc_shoot 1
pc_shoot 2
# A retake: the button held within the review window discards photo 2 and takes photo 3 (the hold is a long press
# only while that sequence runs: the 1.5 s countdown outlasts the 1 s long-press time).
rig_gpio_press booth button
rig_booth_wait 10 1 '"type":"photoDiscarded"'
rig_gpio_release booth button
rig_booth_wait 60 3 '"type":"photoSaved"'
rig_wait_for 30 "idle after the retake" rig_booth_idle
# The knob's choices (the state file is rewritten for each): the next sound, a longer delay, the visual countdown
# off. One turn, one change: a detent the booth does not report fails the scenario (a lost detent is a bug).
pc_knob() { # pc_knob STEPS TEXT: turns the knob STEPS detents once and waits up to 30 s for an event with TEXT
    rig_gpio_knob booth knob-a knob-b "$1"
    rig_booth_wait 30 1 "$2"
}
pc_knob 1 '"name":"sound","value":"Bell"'
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"delay"'
pc_knob 1 '"name":"delay","value":"2.0"'
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"volume"'
pc_knob -2 '"name":"volume","value":"80"'
rig_booth_knob_click
rig_booth_wait 10 1 '"name":"knobMode","value":"sound"'
rig_gpio_click booth knob-switch 1500
rig_booth_wait 10 1 '"name":"visualCountdown","value":"false"'
pc_shoot 4
# An export to a (not logged) stick: the store's index is rewritten with the export records.
rig_usb_image "$PC_DIR/stick.img" 32
usb_mount "$PC_DIR/stick.img" "$USB_MEDIA/stick" loop
rig_booth_wait 120 1 '"type":"exportFinished"'
pc_shoot 5
pc_shoot 6
rig_booth_stop
pc_marker_stop
grep -q '"type":"exportFinished".*"unmounted":true' "$RIG_BOOTH_EVENTS" || rig_fail "the export did not finish"

# What the booth saved, as the kernel shows it: the reference every crash state is compared with (kept and discarded
# photos), and what the replay's reading of the last state must equal.
rm -rf "$RIG_OUT/kernel-view" && mkdir "$RIG_OUT/kernel-view" && cp -a "$mnt/photos" "$mnt/state.toml" "$RIG_OUT/kernel-view/"
reference=$RIG_OUT/kernel-view/photos
rig_log "saved: $(find "$reference" -name 'HeyLook_*.jpg' | wc -l) photos; $(tr '\n' ' ' <"$mnt/state.toml")"
umount "$mnt"
pc_close_disk store

cat >"$RIG_OUT/start.toml" <<'TOML'
[booth]
photos_dir = "@ROOT@/photos"
state_file = "@ROOT@/state.toml"
free_space_reserve_mb = 0
[sound]
favourites = ["Pop", "Bell", "Chime"]
default = "Pop"
TOML
# The host runs the replay, and the booth on a sample of the states: the binary the guest copied, as the host has it.
pc_check store "$disk" "$reference" "$RIG_OUT/kernel-view" --booth "$RIG_BOOTH" --booth-config "$RIG_OUT/start.toml" \
    --events "$RIG_BOOTH_EVENTS" --booth-every "${RIG_POWERCUT_BOOTH_EVERY:-4}"
