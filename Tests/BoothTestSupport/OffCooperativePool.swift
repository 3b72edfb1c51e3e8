// OffCooperativePool: a trait that runs each test of a suite on a dispatch thread of its own, off Swift's cooperative pool.
import Dispatch
import Testing

/// Runs each test (each case of a parameterised one) on a dispatch queue of its own instead of the cooperative pool.
///
/// Swift Testing calls a synchronous test on one of the cooperative pool's threads, one per core (two here), and
/// the test holds that thread until it returns. Two suites that block for minutes (the kill test, the simulated
/// booth) held both, and every other test waited without running until its time limit ran out (CI failed so: the
/// notifier's five tests, each a millisecond's work, "exceeded 60 s"). Under this trait the test's task prefers an
/// executor whose jobs run on private queues, which libdispatch gives threads of their own (overcommit): blocking
/// there leaves the pool to the other tests. The task is the same, so `#expect` and task locals still reach the
/// test.
public struct OffCooperativePool: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Whether the caller runs on a queue of this trait's (for the trait's own test).
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: QueueExecutor.mark) != nil }

    /// One scope per test case: a suite's own scope would put its tests on one executor.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(QueueExecutor(label: "heylook.test.\(test.name)")) {
            try await function()
        }
    }
}

extension Trait where Self == OffCooperativePool {
    /// Runs each test on a dispatch thread of its own, leaving the cooperative pool to the others.
    public static var offCooperativePool: Self { Self() }
}

/// A task executor that runs every job it is given on a serial dispatch queue made for that job.
///
/// A queue made without a target draws its thread from libdispatch's overcommit pool, which starts a thread whenever
/// work waits and none is idle. A concurrent queue draws from the pool sized to the cores, which replaces a blocked
/// thread only after about a second: with one, half the unit tests had not ended 37 s into a run, against 22 s with
/// a queue per job. A task's jobs come one at a time, so a queue per job keeps each task's order; a task group's
/// children still run side by side.
final class QueueExecutor: TaskExecutor {
    /// Set on every such queue: how a job tells it runs on one.
    static let mark = DispatchSpecificKey<Bool>()
    let label: String

    init(label: String) {
        self.label = label
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.mark, value: true)
        queue.async { job.runSynchronously(on: executor) }
    }
}
