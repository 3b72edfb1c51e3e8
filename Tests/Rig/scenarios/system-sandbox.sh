# system-sandbox: the running service's sandbox as systemd applies it: `systemd-analyze security` on the live unit
# (exposure printed, at most 2.0), no capability in any set, the file system read-only but for the state folder.
# shellcheck shell=bash
# rig-vm: system
# rig-timeout: 90
sys_wait_ready 60
systemd-analyze security --no-pager "$SYS_UNIT" >"$RIG_OUT/security.txt" 2>&1 || true
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$RIG_OUT/security.txt")
rig_log "systemd-analyze security $SYS_UNIT: exposure $score"
[[ -n $score ]] || { cat "$RIG_OUT/security.txt" >&2; rig_fail "no exposure level in systemd-analyze's output"; }
rig_assert "exposure $score <= 2.0" awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'
pid=$(sys_pid)
for set in CapInh CapPrm CapEff CapBnd CapAmb; do
    v=$(sed -n "s/^$set:\t//p" "/proc/$pid/status")
    rig_assert "$set is empty ($v)" test "$v" = 0000000000000000
done
rig_assert "runs as the booth user" test "$(stat -c %U "/proc/$pid")" = booth
# The booth's view of the file system, probed as root inside the unit's mount namespace (nsenter): the system is
# mounted read-only, the state folder is not.
probe() { nsenter -t "$pid" -m touch "$1" 2>&1 && nsenter -t "$pid" -m rm -f "$1"; }
rig_assert "/etc is read-only in the sandbox" bash -c "$(declare -f probe); pid=$pid; probe /etc/rig-probe | grep -q 'Read-only file system'"
rig_assert "/usr is read-only in the sandbox" bash -c "$(declare -f probe); pid=$pid; probe /usr/rig-probe | grep -q 'Read-only file system'"
rig_assert "the state folder is writable in the sandbox" probe "$SYS_STATE/rig-probe"
