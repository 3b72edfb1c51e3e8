// RealtimeScheduling: SCHED_FIFO for the event loop's thread, so a press wakes it at once under load.
import BoothSystem
import Dispatch

/// SCHED_FIFO for the event loop's thread, so an edge on the button wakes it at once even while a
/// photo is encoded or a stick written; the workers put themselves back on the normal scheduler
/// (threads inherit their creator's policy, and the loop's thread starts the workers' threads).
package enum RealtimeScheduling {
    /// Runs the calling thread SCHED_FIFO at `priority` (nothing for 0). Returns a warning naming
    /// the fix when the system refuses (no RLIMIT_RTPRIO, no CAP_SYS_NICE): the booth then runs on
    /// the normal scheduler.
    package static func enter(priority: Int) -> String? {
        guard priority > 0 else { return nil }
        let reason: String
        do throws(SystemError) {
            try ThreadScheduling.runRealtime(priority: Int32(priority))
            return nil
        } catch {
            reason = ErrnoText.describe(error.errno)
        }
        return
            "realtime: cannot run the event loop SCHED_FIFO at \(priority) (\(reason)); it runs on the normal scheduler."
            + " Give the service LimitRTPRIO=\(priority) (deploy/heylook-booth.service does) or set"
            + " booth.realtime_priority = 0"
    }

    /// Puts the calling thread (a worker) back on the normal scheduler if it inherited SCHED_FIFO.
    static func leave() {
        guard ThreadScheduling.current() != .normal else { return }
        try? ThreadScheduling.runNormal()
    }

    /// Runs `work` with the calling thread (a worker) on the normal scheduler.
    static func onNormalScheduler<T>(_ work: () -> T) -> T {
        leave()
        return work()
    }

    /// The calling thread's policy and priority, e.g. "SCHED_FIFO 10" (for the ready event and tests).
    package static func current() -> String {
        switch ThreadScheduling.current() {
        case .fifo(let priority): "SCHED_FIFO \(priority)"
        case .roundRobin(let priority): "SCHED_RR \(priority)"
        case .normal, .other: "SCHED_OTHER"
        }
    }
}

extension DispatchQueue {
    /// Runs `work` on this queue on the normal scheduler (its thread may have been started by the
    /// loop's SCHED_FIFO thread and inherited that): the workers' encoding and copying never
    /// compete with the loop.
    func asyncOnNormalScheduler(_ work: @escaping @Sendable () -> Void) {
        async { RealtimeScheduling.onNormalScheduler(work) }
    }
}
