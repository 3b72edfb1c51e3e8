#!/usr/bin/env bash
# Installs HeyLook Booth on a Raspberry Pi (Raspberry Pi OS / Debian, as root) from a source checkout:
# system packages, a release build, the `booth` user, config, udev rules and the systemd unit.
# Re-running it upgrades the binary and keeps /etc/heylook/booth.toml.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $(id -u) -eq 0 ]] || { echo "install.sh: run as root (sudo deploy/install.sh)" >&2; exit 1; }

"$root/scripts/install-deps"
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --package-path "$root" --product booth

install -m 0755 "$root/.build/release/booth" /usr/local/bin/booth
getent group gpio >/dev/null || groupadd --system gpio
id booth >/dev/null 2>&1 || useradd --system --home-dir /var/lib/heylook --shell /usr/sbin/nologin \
    --groups gpio,audio,video,plugdev booth
install -d -o booth -g booth -m 0750 /var/lib/heylook /var/lib/heylook/photos /var/lib/heylook/sounds
install -d -m 0755 /etc/heylook /media/heylook /usr/local/share/doc/heylook
[[ -f /etc/heylook/booth.toml ]] || install -m 0644 "$root/deploy/booth.toml" /etc/heylook/booth.toml
install -m 0644 "$root/README.md" /usr/local/share/doc/heylook/README.md
install -m 0644 "$root"/deploy/udev/*.rules /etc/udev/rules.d/
install -D -m 0644 "$root/deploy/polkit/50-heylook-booth.rules" /usr/share/polkit-1/rules.d/50-heylook-booth.rules
udevadm control --reload || true
udevadm trigger --subsystem-match=gpio || true
install -m 0644 "$root/deploy/heylook-booth.service" /etc/systemd/system/heylook-booth.service
systemctl daemon-reload
/usr/local/bin/booth doctor --config /etc/heylook/booth.toml || echo "install.sh: fix what booth doctor lists above" >&2
systemctl enable --now heylook-booth.service
echo "HeyLook Booth installed: systemctl status heylook-booth; journalctl -u heylook-booth -f"
