// RetriedDevice: what a device that DeviceRetryRunner retries answers: its name, whether it is busy, and a reopen.

/// A device whose opening `DeviceRetryRunner` retries. The runner is handed the device with each outcome
/// (`opened(problem:of:)`, `lost(_:of:)`) and holds it weakly until its retry is due, so nothing is wired after init.
protocol RetriedDevice: AnyObject {
    /// The device as "is back" names it ("default", "libcamera:/base/...").
    var retryLabel: String { get }
    /// Whether the device is busy now: its retry then waits for the next interval.
    var retryBusy: Bool { get }
    /// Tries to open the device again: nil once open, else why not.
    func reopenForRetry() -> String?
}
