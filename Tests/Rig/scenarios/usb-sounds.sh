# usb-sounds: with sound.stick_sounds on, a stick with a HeyLook/sounds folder: its valid WAV is imported into the
# sounds folder (before the photos are exported) and joins the knob's sounds, the broken one is reported by name,
# and the booth runs on.
# shellcheck shell=bash
# rig-needs: booth
# rig-timeout: 180
# shellcheck source=SCRIPTDIR/../lib/usb.sh disable=SC1091
source "$RIG_DIR/lib/usb.sh"
usb_booth_start sound.stick_sounds=true
img=$RIG_OUT/stick.img
rig_usb_image "$img" 16
rig_modprobe loop vfat nls_cp437 nls_ascii
usb_mount "$img" "$RIG_STATE/fill" loop
mkdir -p "$RIG_STATE/fill/HeyLook/sounds"
rig_tone "$RIG_STATE/fill/HeyLook/sounds/Beep.wav" 880 0.3 48000 1
printf 'RIFF\x10\x00\x00\x00WAVEjunk' >"$RIG_STATE/fill/HeyLook/sounds/Broken.wav"
umount "$RIG_STATE/fill"
dev=$(rig_usb_plug "$img")
usb_mount "$dev" "$USB_MEDIA/stick"
rig_wait_for 60 "the sound's import" usb_has_event soundImported 1
rig_wait_for 60 "exportFinished" usb_has_event exportFinished 1
rig_log "$(usb_last soundImported)"
rig_assert "Beep was imported" grep -qF '"type":"soundImported","stick":"'"$USB_MEDIA"'/stick","sound":"Beep"' "$USB_EVENTS"
rig_assert "the broken file is reported by name" grep -qF "Sound 'Broken.wav'" "$USB_EVENTS"
rig_assert "Beep is in the sounds folder" test -s "$RIG_OUT/sounds/Beep.wav"
rig_assert "the broken file is not" test ! -e "$RIG_OUT/sounds/Broken.wav"
rig_assert "Beep joined the knob's sounds" grep -qF '"name":"sounds","value":"Duck, Cow, Dog, Boing, Whistle, Beep"' "$USB_EVENTS"
rig_usb_pull
# One detent back from Duck (the first) wraps to the last sound: Beep.
rig_gpio_knob booth knob-a knob-b -1
rig_wait_for 20 "the knob to choose Beep" grep -qF '"name":"sound","value":"Beep"' "$USB_EVENTS"
rig_wait_for 20 "Beep's preview" grep -qF '"type":"soundStarted","sound":"Beep","purpose":"preview"' "$USB_EVENTS"
usb_booth_stop
