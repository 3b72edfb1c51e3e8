# system-watchdog: systemd's watchdog and Restart=always on the installed service. SIGSTOP freezes the event loop:
# its WATCHDOG=1 pings stop, systemd kills the booth (journal: watchdog timeout) and starts a new one within
# WatchdogSec + RestartSec (plus the start itself); SIGKILL is restarted too; no photo is lost.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 180
sys_wait_ready 60
sys_photo >/dev/null
photos=$(sys_photos)
watchdog_s=$(sys_seconds "$(sys_prop WatchdogUSec)") restart_s=$(sys_seconds "$(sys_prop RestartUSec)")
rig_log "WatchdogSec=$watchdog_s RestartSec=$restart_s, $(wc -l <<<"$photos") photo(s)"

# restarted OLD_PID: a booth other than OLD_PID is ready. sys_restart_took OLD_PID SECONDS WHAT: waits for that,
# prints how long it took in tenths of a second.
restarted() { local p; p=$(sys_pid); [[ $p != 0 && $p != "$1" ]] && sys_ready; }
sys_restart_took() {
    local t0 t1
    rig_now_ms t0
    rig_wait_for "$2" "a new booth after $3" restarted "$1"
    rig_now_ms t1
    echo $(((t1 - t0) / 100))
}

pid=$(sys_pid) restarts=$(sys_prop NRestarts)
kill -STOP "$pid"
took=$(sys_restart_took "$pid" $((watchdog_s + restart_s + 30)) SIGSTOP)
rig_log "ok: SIGSTOP: booth $(sys_pid) ready ${took:0:-1}.${took: -1} s after the freeze (WatchdogSec + RestartSec = $((watchdog_s + restart_s)) s)"
rig_assert "the journal names the watchdog" bash -c "journalctl -b -u $SYS_UNIT -o cat | grep -qi 'watchdog timeout'"
rig_assert "systemd counted a restart" test "$(sys_prop NRestarts)" -gt "$restarts"

pid=$(sys_pid) restarts=$(sys_prop NRestarts)
kill -KILL "$pid"
took=$(sys_restart_took "$pid" $((restart_s + 30)) SIGKILL)
rig_log "ok: SIGKILL: booth $(sys_pid) ready ${took:0:-1}.${took: -1} s later"
rig_assert "systemd counted a restart" test "$(sys_prop NRestarts)" -gt "$restarts"
rig_assert "no photo lost" test "$(sys_photos)" = "$photos"
# The new booth works.
sys_photo >/dev/null
rig_log "ok: a photo after the restarts"
