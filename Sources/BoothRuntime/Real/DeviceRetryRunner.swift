// DeviceRetryRunner: carries out a device's `DeviceRetry` on the event loop.
import BoothCore

/// Carries out what a device's `DeviceRetry` asks, on the loop: the warning reported as an event, the
/// log lines, the retry timer and the reopen. Each outcome comes with its device (`RetriedDevice`), which says how to
/// reopen (nil once open, else why not) and whether it is busy (a busy device's retry waits for the next interval);
/// the policy itself stays in the value.
final class DeviceRetryRunner {
    private var retry: DeviceRetry
    private let warning: DeviceWarning
    private let loop: EventLoop
    private let report: DeviceReport

    init(_ retry: DeviceRetry, warning: DeviceWarning, loop: EventLoop, report: @escaping DeviceReport) {
        self.retry = retry
        self.warning = warning
        self.loop = loop
        self.report = report
    }

    /// Why the device is not open; nil while it is.
    var problem: String? { retry.problem }

    /// The outcome of `device`'s first attempt to open: nil when it opened, else why not.
    func opened(problem: String?, of device: any RetriedDevice) {
        carryOut(retry.opened(problem: problem, at: loop.now()), for: device)
    }

    /// The open `device` failed while in use.
    func lost(_ reason: String, of device: any RetriedDevice) {
        carryOut(retry.lost(reason, at: loop.now()), for: device)
    }

    private func carryOut(_ actions: [DeviceRetry.Action], for device: any RetriedDevice) {
        for action in actions {
            switch action {
            case .warn(let active): report(.deviceWarning(warning, active: active), loop.now())
            case .logError(let message): Log.error(message)
            case .logInfo(let message): Log.info("\(message) (\(device.retryLabel))")
            case .scheduleRetry(let deadline):
                // A device stopped meanwhile is retried no more.
                loop.schedule(at: deadline) { [unowned self, weak device] in
                    guard let device else { return }
                    carryOut(retry.retryDue(at: loop.now(), busy: device.retryBusy), for: device)
                }
            case .open:
                carryOut(retry.opened(problem: device.reopenForRetry(), at: loop.now()), for: device)
            }
        }
    }
}
