// EventInbox: where devices and workers report to the controller, including before it exists.
import BoothCore
import BoothTime

/// Where devices and workers report to the booth's controller. Devices are made before the controller (it is made
/// with them), and one may report while it is made (a missing camera): such events wait here, in order, and the
/// controller takes them when it opens the inbox at the end of its own making. After that every event goes straight
/// to the controller, which handles them in order, one batch of actions at a time.
package final class EventInbox {
    /// The controller, once it opened the inbox; its workers' reports reach it through this.
    private(set) weak var controller: BoothController?
    /// Events reported before the controller opened the inbox.
    private var early: [(event: BoothEvent, time: Instant, source: String?)] = []

    package init() {}

    /// Reports `event`, which happened at `time`; an input's event may name the device it came from (a remote's name).
    func post(_ event: BoothEvent, at time: Instant, from source: String? = nil) {
        if let controller {
            controller.dispatch(event, at: time, from: source)
        } else {
            early.append((event, time, source))
        }
    }

    /// A camera's frame for capture `id`; released at once when no controller takes it.
    func deliver(_ id: CaptureID, _ frame: any PhotoFrame) {
        if let controller {
            controller.frameArrived(id, frame)
        } else {
            frame.release()
        }
    }

    /// Hands the inbox to `controller`, with every event reported so far, in order.
    func open(for controller: BoothController) {
        self.controller = controller
        let waiting = early
        early = []
        for (event, time, source) in waiting { controller.dispatch(event, at: time, from: source) }
    }
}
