# system-reboot: the VM reboots from the same disk (the host boots the overlay again): photos, the index and the
# knob's choices are all there, and the service is READY on its own; boot -> READY is measured.
# shellcheck shell=bash
# rig-vm: system
# rig-reboots: 1
# rig-shares-reboot: yes
# rig-timeout: 150
snapshot() { # what must survive: the photos with their sizes, their states and exports as the index has them (the
    # booth reconciles the index file with the photos at start, so its lines are compared through `booth photos`),
    # the knob's choices
    (cd "$SYS_PHOTOS" && find . -type f -name '*.jpg' -printf '%p %s\n' | sort)
    booth photos --config "$SYS_CONFIG"
    cat "$SYS_STATE/state.toml"
}
if ! sys_booted_again; then
    sys_wait_ready 60
    (($(sys_photo_count) > 0)) || sys_photo >/dev/null
    if [[ ! -e $SYS_STATE/state.toml ]]; then # the knob's choices are saved on their first change
        rig_gpio_knob "$SYS_CHIP" "$SYS_KNOB_A" "$SYS_KNOB_B" 1
        rig_wait_for 15 "the state file" test -s "$SYS_STATE/state.toml"
    fi
    snapshot >"$RIG_OUT/before.txt"
    rig_log "before the reboot: $(sys_photo_count) photo(s) kept; $(booth photos --config "$SYS_CONFIG" | tail -1)"
    rig_reboot
fi
sys_wait_ready 60
ready_us=$(sys_prop ActiveEnterTimestampMonotonic)
rig_log "boot -> READY: $(awk -v u="$ready_us" 'BEGIN { printf "%.1f", u / 1e6 }') s (kernel start to the booth's READY=1, emulated CPU)"
echo "$ready_us" >"$RIG_OUT/boot-to-ready-us"
snapshot >"$RIG_OUT/after.txt"
rig_assert "photos, index and choices are unchanged" diff "$RIG_OUT/before.txt" "$RIG_OUT/after.txt"
sys_photo >/dev/null
rig_log "ok: a photo after the reboot"
