# system-watchdog: systemd's watchdog and Restart=always on the installed service. SIGSTOP freezes the event loop:
# its WATCHDOG=1 pings stop, systemd kills the booth (journal: watchdog timeout) and starts a new one, READY once it
# has started; SIGKILL: a new one, no sooner than RestartSec; NRestarts counts both; no photo is lost. How long each
# took is logged; the deadlines (the timers + 30 s) only end a wait for a restart that never comes: beside a busy
# loop per host core the emulated guest's systemd took over RestartSec + 2 s to start the new booth.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 240
sys_wait_ready 60
sys_photo >/dev/null
photos=$(sys_photos)
watchdog_s=$(sys_seconds "$(sys_prop WatchdogUSec)") restart_s=$(sys_seconds "$(sys_prop RestartUSec)")
rig_log "WatchdogSec=$watchdog_s RestartSec=$restart_s, $(wc -l <<<"$photos") photo(s)"

# started OLD_PID: systemd started a booth other than OLD_PID. restarted OLD_PID: that booth is ready.
started() { local p; p=$(sys_pid); [[ $p != 0 && $p != "$1" ]]; }
restarted() { started "$1" && sys_ready; }
# sys_took SECONDS WHAT COMMAND...: waits for COMMAND, prints how long it took ("12.3").
sys_took() {
    local secs=$1 what=$2 t0 t1
    shift 2
    rig_now_ms t0
    rig_wait_for "$secs" "$what" "$@"
    rig_now_ms t1
    awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", d / 1000 }'
}

pid=$(sys_pid) restarts=$(sys_prop NRestarts) frozen=0 ready=0
rig_now_ms frozen
kill -STOP "$pid"
# systemd's own timers: the kill at WatchdogSec, the new process RestartSec later; READY follows once the new booth
# has started (several seconds under emulation).
took=$(sys_took $((watchdog_s + restart_s + 30)) "systemd to start a new booth after SIGSTOP" started "$pid")
rig_log "ok: SIGSTOP: systemd started booth $(sys_pid) $took s after the freeze (WatchdogSec + RestartSec = $((watchdog_s + restart_s)) s)"
rig_wait_for 30 "the new booth's READY" restarted "$pid"
rig_now_ms ready
rig_log "ok: READY $(awk -v d=$((ready - frozen)) 'BEGIN { printf "%.1f", d / 1000 }') s after the freeze"
rig_assert "the journal names the watchdog" bash -c "journalctl -b -u $SYS_UNIT -o cat | grep -qi 'watchdog timeout'"
rig_assert "systemd counted a restart" test "$(sys_prop NRestarts)" -gt "$restarts"

pid=$(sys_pid) restarts=$(sys_prop NRestarts)
kill -KILL "$pid"
took=$(sys_took $((restart_s + 30)) "systemd to start a new booth after SIGKILL" started "$pid")
rig_log "ok: SIGKILL: systemd started booth $(sys_pid) $took s later (RestartSec = $restart_s s)"
rig_assert "systemd waited RestartSec before the new booth" awk -v t="$took" -v r="$restart_s" 'BEGIN { exit !(t >= r) }'
took=$(sys_took 30 "the new booth's READY" restarted "$pid")
rig_log "ok: READY $took s after that"
rig_assert "systemd counted a restart" test "$(sys_prop NRestarts)" -gt "$restarts"
rig_assert "no photo lost" test "$(sys_photos)" = "$photos"
# The new booth works.
sys_photo >/dev/null
rig_log "ok: a photo after the restarts"
