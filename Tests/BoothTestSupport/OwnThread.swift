// onOwnThread: blocking work in an async test, kept off Swift's cooperative threads.
import Dispatch

/// Runs `body` on a dispatch thread of its own and waits for it without holding a thread.
///
/// Swift Testing runs tests on the cooperative pool, one thread per core (two here). A test that blocks
/// a cooperative thread until another task of its own acts (an export waiting in `flock` for the test to
/// release the lock) deadlocks when the other threads are busy (the kill test holds one for minutes):
/// it and every test queued behind it wait, and their time limits run out.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue(label: "heylook.test-blocking").async { continuation.resume(with: Result { try body() }) }
    }
}
