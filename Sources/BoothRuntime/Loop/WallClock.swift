// WallClock: the local wall-clock time for photo names and EXIF, and whether to trust it (never for timing).
import BoothCore
import BoothSystem
import BoothTime
import PhotoModel
import PhotoStore

/// The local wall-clock time for photo names and EXIF (never for timing: that is the loop's
/// `LoopClock`), and the one owner of whether it is trusted. A Pi has no battery clock: until network
/// time has set it, the kernel's clock says whatever was saved at the last shutdown (or 1970), and the
/// kernel says so (adjtimex: `STA_UNSYNC`). A photo taken then is undated rather than falsely dated. At a party
/// with no network, the gallery sets the clock from the first signed-in phone and leaves a `ClockMark`: the kernel
/// still says unsynchronised, and the mark is what makes the clock trusted for the rest of the boot.
package struct WallClock: Sendable {
    /// Where the trust in the clock comes from.
    package enum Trust: Sendable, Equatable {
        /// The kernel's synchronisation status or the gallery's `ClockMark`, read at each photo (the booth's default).
        case kernel
        /// Always (`booth.trust_clock`: a battery-backed clock, set by hand).
        case always
        /// Never (the simulator's `--clock unsynchronised`).
        case never
    }

    /// What the kernel says of its clock.
    package enum Status: Sendable, Equatable {
        case synchronised
        case unsynchronised
        /// adjtimex failed (a sandbox that forbids it); the text names the error.
        case unknown(String)
    }

    /// Where the trust comes from.
    let trust: Trust

    /// Where the gallery leaves its `ClockMark`.
    let markPath: String

    /// Reads the kernel's status (`status()`; a fixed answer in tests).
    let kernelStatus: @Sendable () -> Status

    /// This boot's id (`BootID`), read once; nil when it cannot be read (then undated photos stay undated).
    let boot: String?

    /// A clock trusted as `trust` says.
    package init(
        trust: Trust, markPath: String = ClockMark.path, kernelStatus: @escaping @Sendable () -> Status = status,
        boot: String? = BootID.current()
    ) {
        self.trust = trust
        self.markPath = markPath
        self.kernelStatus = kernelStatus
        self.boot = boot
    }

    /// Where to look for the gallery's mark that dates the photos saved undated earlier in the boot (read by the
    /// save worker, off the loop); nil for a clock trusted `.never` (the simulator's).
    var datingMarkPath: String? {
        trust == .never ? nil : markPath
    }

    /// A frame's exposure `instant` (the kernel's monotonic clock) as a moment of this boot, recorded with an
    /// undated photo so that a phone setting the clock later in the boot dates it.
    func moment(of instant: Instant) -> BootInstant? {
        boot.flatMap { BootInstant(boot: $0, instant: instant) }
    }

    /// The time to name and stamp a photo with now, or nil when the clock cannot be trusted.
    func photoTime() -> PhotoName.DateTime? {
        switch trust {
        case .always: Self.now()
        case .never: nil
        case .kernel: kernelStatus() == .synchronised || Self.phoneMark(markPath) != nil ? Self.now() : nil
        }
    }

    /// Whether photos are dated now and why, one word or a short phrase: "synchronised", "set from a phone",
    /// "trusted", "unsynchronised" or "unknown: adjtimex: …".
    func state() -> String {
        switch trust {
        case .always: return "trusted"
        case .never: return "unsynchronised"
        case .kernel:
            switch kernelStatus() {
            case .synchronised: return "synchronised"
            case _ where Self.phoneMark(markPath) != nil: return "set from a phone"
            case .unsynchronised: return "unsynchronised"
            case .unknown(let text): return "unknown: \(text)"
            }
        }
    }

    /// The gallery's mark at `path`, when it set the clock from a phone this boot.
    package static func phoneMark(_ path: String) -> ClockMark? {
        (try? ConfigLoader.readText(path)).flatMap { $0 }.flatMap(ClockMark.parse)
    }

    /// The kernel's synchronisation status (adjtimex with no change: a read, allowed without
    /// CAP_SYS_TIME). Unsynchronised when adjtimex reports TIME_ERROR or the STA_UNSYNC flag.
    package static func status() -> Status {
        do throws(SystemError) {
            return try WallTime.isSynchronised() ? .synchronised : .unsynchronised
        } catch {
            return .unknown("adjtimex: \(ErrnoText.describe(error.errno))")
        }
    }

    /// Now, in local time.
    static func now() -> PhotoName.DateTime {
        PhotoName.DateTime(localSeconds: WallTime.nowMicroseconds() / 1_000_000)
    }

    /// `YYYY-MM-DD HH:MM:SS.mmm` of now, local, for the simulated camera's test pattern.
    static func timeOfDayWithMilliseconds() -> String {
        let microseconds = WallTime.nowMicroseconds()
        let ms = microseconds / 1000 % 1000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(WallTime(seconds: microseconds / 1_000_000, local: true).text).\(msText)"
    }
}
