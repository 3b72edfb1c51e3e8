// ThreadScheduling: the calling thread's scheduling policy, read and set.
import Glibc

/// The calling thread's scheduling policy and priority (a realtime event loop, workers back on the normal
/// scheduler): read and set, for the calling thread only.
public enum ThreadScheduling {
    /// A scheduling policy.
    public enum Policy: Equatable, Sendable {
        /// SCHED_FIFO at a priority (1 to 99).
        case fifo(priority: Int32)
        /// SCHED_RR at a priority.
        case roundRobin(priority: Int32)
        /// SCHED_OTHER, the normal scheduler.
        case normal
        /// Another policy (SCHED_BATCH, SCHED_IDLE ...), or -1 when it cannot be read.
        case other(Int32)
    }

    /// The calling thread's policy. The corresponding C functions are `sched_getparam` and `sched_getscheduler`.
    public static func current() -> Policy {
        var parameters = sched_param()
        _ = sched_getparam(0, &parameters)
        switch sched_getscheduler(0) {
        case SCHED_FIFO: return .fifo(priority: parameters.sched_priority)
        case SCHED_RR: return .roundRobin(priority: parameters.sched_priority)
        case SCHED_OTHER: return .normal
        case let policy: return .other(policy)
        }
    }

    /// Runs the calling thread SCHED_FIFO at `priority`; the system refuses without RLIMIT_RTPRIO or CAP_SYS_NICE
    /// (EPERM), or a priority beyond 99 (EINVAL). The corresponding C function is `sched_setscheduler`.
    public static func runRealtime(priority: Int32) throws(SystemError) {
        try set(SCHED_FIFO, priority: priority)
    }

    /// Puts the calling thread on the normal scheduler (SCHED_OTHER). The corresponding C function is
    /// `sched_setscheduler`.
    public static func runNormal() throws(SystemError) {
        try set(SCHED_OTHER, priority: 0)
    }

    private static func set(_ policy: Int32, priority: Int32) throws(SystemError) {
        var parameters = sched_param(sched_priority: priority)
        try SystemError.check("sched_setscheduler") { sched_setscheduler(0, policy, &parameters) }
    }
}
