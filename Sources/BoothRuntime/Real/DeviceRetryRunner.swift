// DeviceRetryRunner: carries out a device's `DeviceRetry` on the event loop.
import BoothCore

/// Carries out what a device's `DeviceRetry` asks, on the loop: the warning reported as an event, the
/// log lines, the retry timer and the reopen. The device says how to reopen (`reopen` answers nil once
/// open, else why not) and whether it is busy (a busy device's retry waits for the next interval); the
/// policy itself stays in the value.
final class DeviceRetryRunner {
    private var retry: DeviceRetry
    private let warning: DeviceWarning
    private let loop: EventLoop
    private let report: DeviceReport
    /// The device as "is back" names it ("default", "libcamera:/base/...").
    private let label: () -> String
    private let busy: () -> Bool
    private let reopen: () -> String?

    init(
        _ retry: DeviceRetry, warning: DeviceWarning, loop: EventLoop, report: @escaping DeviceReport,
        label: @escaping () -> String, busy: @escaping () -> Bool = { false }, reopen: @escaping () -> String?
    ) {
        self.retry = retry
        self.warning = warning
        self.loop = loop
        self.report = report
        self.label = label
        self.busy = busy
        self.reopen = reopen
    }

    /// Why the device is not open; nil while it is.
    var problem: String? { retry.problem }

    /// The outcome of the first attempt to open: nil when the device opened, else why not.
    func opened(problem: String?) {
        carryOut(retry.opened(problem: problem, at: loop.now()))
    }

    /// The open device failed while in use.
    func lost(_ reason: String) {
        carryOut(retry.lost(reason, at: loop.now()))
    }

    private func carryOut(_ actions: [DeviceRetry.Action]) {
        for action in actions {
            switch action {
            case .warn(let active): report(.deviceWarning(warning, active: active), loop.now())
            case .logError(let message): Log.error(message)
            case .logInfo(let message): Log.info("\(message) (\(label()))")
            case .scheduleRetry(let deadline):
                loop.schedule(at: deadline) { [unowned self] in
                    carryOut(retry.retryDue(at: loop.now(), busy: busy()))
                }
            case .open:
                carryOut(retry.opened(problem: reopen(), at: loop.now()))
            }
        }
    }
}
