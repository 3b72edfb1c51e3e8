// DeviceRetry: the open / lost / retrying life of a device that can go missing, as a value.
import BoothTime

/// The open / lost / retrying life of a device that can go missing (the sound card, the camera), as a
/// value: the device tells it what happened, it answers what to do, and it never reads a clock. A
/// missing device is warned about once (a condition the state machine shows), retried every
/// `interval` (while the device is busy the retry waits for the next interval), said again in the log
/// only when the reason changes, and the warning ends when it opens.
public struct DeviceRetry: Sendable {
    /// What the device does next.
    public enum Action: Hashable, Sendable {
        /// The device's warning starts (true) or ends (false).
        case warn(Bool)
        /// A line for the log: an error (the device is missing, and why) or news (it is back).
        case logError(String)
        case logInfo(String)
        /// Arm the retry timer for `at` (one at a time; `retryDue` answers it).
        case scheduleRetry(at: Instant)
        /// Try to open the device now and report the outcome to `opened(problem:at:)`.
        case open
    }

    /// The device's name in messages ("sound", "camera").
    public let name: String
    /// What the booth does meanwhile, said in the message ("running silent"), if anything.
    public let meanwhile: String?
    /// The time between two attempts.
    public let interval: Duration
    /// Why the device is not open; nil while it is.
    public private(set) var problem: String?
    /// Whether a retry is armed.
    public private(set) var retryArmed = false

    /// A device that has not been opened yet.
    public init(name: String, interval: Duration, meanwhile: String? = nil) {
        self.name = name
        self.interval = interval
        self.meanwhile = meanwhile
    }

    /// The outcome of an attempt to open (the first one at start, then each `.open`): nil when the
    /// device opened, else why not.
    public mutating func opened(problem: String?, at now: Instant) -> [Action] {
        let wasMissing = self.problem != nil
        let previous = self.problem
        self.problem = problem
        guard let problem else {
            return wasMissing ? [.logInfo("\(name) is back"), .warn(false)] : []
        }
        var actions: [Action] = []
        if !wasMissing {
            actions.append(.warn(true))
            actions.append(.logError(message(problem)))
        } else if problem != previous {
            actions.append(.logError(message(problem)))
        }
        return actions + arm(now)
    }

    /// The open device failed while in use: it counts as missing from now on.
    public mutating func lost(_ reason: String, at now: Instant) -> [Action] {
        guard problem == nil else { return [] }
        return opened(problem: reason, at: now)
    }

    /// The retry timer fired. A device still `busy` (a sound still timed on the silent fallback) waits
    /// for the next interval; otherwise it is tried.
    public mutating func retryDue(at now: Instant, busy: Bool) -> [Action] {
        retryArmed = false
        guard problem != nil else { return [] }
        return busy ? arm(now) : [.open]
    }

    private mutating func arm(_ now: Instant) -> [Action] {
        guard !retryArmed else { return [] }
        retryArmed = true
        return [.scheduleRetry(at: now.advanced(by: interval))]
    }

    /// "sound: <why>; running silent, retrying every 10 s" (a `problem` ending in a full stop loses it: not ".;").
    private func message(_ problem: String) -> String {
        let why = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        return "\(name): \(why); \(meanwhile.map { "\($0), " } ?? "")retrying every \(interval.spoken)"
    }
}
