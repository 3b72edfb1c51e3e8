// BootID: the kernel's id of this boot, which names the monotonic clock's timeline.
import Glibc

/// The kernel's id of this boot (a random UUID made at each boot): it names the timeline of the monotonic clock,
/// so a moment recorded in one process (an undated photo's) can be compared with one from another (the gallery
/// setting the clock). Read from `HEYLOOK_BOOT_ID` when set (the gallery's unit passes systemd's `%b`: its sandbox
/// hides /proc/sys), else from /proc/sys/kernel/random/boot_id. As text, with or without dashes.
public enum BootID {
    /// Where the kernel shows it.
    public static let path = "/proc/sys/kernel/random/boot_id"
    /// The environment variable that gives it instead.
    public static let environment = "HEYLOOK_BOOT_ID"

    /// This boot's id as the environment or the kernel gives it, or nil when neither can be read.
    public static func current() -> String? {
        if let given = getenv(environment) { return String(cString: given) }
        guard let bytes = try? FileReading.contents(of: path, limit: 64) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
