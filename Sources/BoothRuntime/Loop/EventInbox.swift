// EventInbox: where devices and workers report to the controller, including before it exists.
import BoothCore
import BoothTime

/// Where devices and workers report to the booth's controller. Devices are made before the controller (it is made
/// with them), and one may report while it is made (a missing camera); the controller's own workers are made inside
/// its making. Whatever is reported before the controller opens the inbox at the end of its making waits here, in
/// order, and the controller takes it then. After that every report goes straight to the controller, which handles
/// them in order, one batch of actions at a time.
package final class EventInbox {
    /// The controller, once it opened the inbox.
    private(set) weak var controller: BoothController?
    /// Reports made before the controller opened the inbox, in order, each as what it does to the controller.
    private var early: [(BoothController) -> Void] = []

    package init() {}

    /// Reports `event`, which happened at `time`; an input's event may name the device it came from (a remote's name).
    func post(_ event: BoothEvent, at time: Instant, from source: String? = nil) {
        hand { $0.dispatch(event, at: time, from: source) }
    }

    /// A camera's frame for capture `id`; released at once when no controller takes it.
    func deliver(_ id: CaptureID, _ frame: any PhotoFrame) {
        if let controller {
            controller.frameArrived(id, frame)
        } else {
            frame.release()
        }
    }

    /// The export worker's report.
    func exported(_ report: ExportWorker.Report) { hand { $0.exportReport(report) } }

    /// The save worker's result.
    func saved(_ result: PhotoSaver.Result) { hand { $0.saveResult(result) } }

    /// The print worker's report.
    func printed(_ report: PhotoPrinter.Report) { hand { $0.printReport(report) } }

    /// Hands the inbox to `controller`, with everything reported so far, in order.
    func open(for controller: BoothController) {
        self.controller = controller
        let waiting = early
        early = []
        for report in waiting { report(controller) }
    }

    /// `report` done to the controller now, or kept until it opens the inbox.
    private func hand(_ report: @escaping (BoothController) -> Void) {
        if let controller {
            report(controller)
        } else {
            early.append(report)
        }
    }
}
