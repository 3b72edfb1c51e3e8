// RealtimeSchedulingTests: the loop thread's real-time priority, asked for and reported.
import Dispatch
import Glibc
import Synchronization
import Testing

@testable import BoothMain

@Suite(.timeLimit(.minutes(3))) struct RealtimeSchedulingTests {
    /// Runs `body` on a thread of its own (its scheduling changes must not leak into the test runner).
    func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        var thread = pthread_t()
        let box = Unmanaged.passRetained(
            ThreadBody {
                result.withLock { $0 = body() }
                done.signal()
            } as AnyObject)
        let created = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue() as! ThreadBody
                body.run()
                return nil
            }, box.toOpaque())
        #expect(created == 0)
        done.wait()
        pthread_join(thread, nil)
        return result.withLock { $0! }
    }

    final class ThreadBody: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    @Test func priorityZeroLeavesTheNormalScheduler() {
        let (warning, policy) = onOwnThread { (RealtimeScheduling.enter(priority: 0), RealtimeScheduling.current()) }
        #expect(warning == nil)
        #expect(policy == "SCHED_OTHER")
    }

    /// The loop's thread runs SCHED_FIFO; a worker's job, even on a thread that inherited that, runs
    /// on the normal scheduler. Where the system refuses (no RLIMIT_RTPRIO, no CAP_SYS_NICE), the
    /// warning names the fix and nothing changed.
    @Test func theLoopRunsRealtimeAndItsWorkersDoNot() {
        let (warning, loopPolicy, jobPolicy) = onOwnThread {
            let warning = RealtimeScheduling.enter(priority: 10)
            let loopPolicy = RealtimeScheduling.current()
            // What every job on the save and export queues runs through (`asyncOnNormalScheduler`).
            let jobPolicy = RealtimeScheduling.onNormalScheduler { RealtimeScheduling.current() }
            return (warning, loopPolicy, jobPolicy)
        }
        if let warning {
            #expect(warning.contains("LimitRTPRIO=10") && warning.contains("booth.realtime_priority = 0"))
            #expect(loopPolicy == "SCHED_OTHER")
        } else {
            #expect(loopPolicy == "SCHED_FIFO 10")
        }
        #expect(jobPolicy == "SCHED_OTHER")
    }

    /// Why the workers must leave: a thread the loop's thread starts (as libdispatch does for the
    /// save and export queues) inherits SCHED_FIFO; `leave` puts it back on the normal scheduler.
    @Test func aThreadStartedByTheLoopInheritsRealtimeUntilItLeaves() {
        let (warning, child) = onOwnThread {
            let warning = RealtimeScheduling.enter(priority: 10)
            let child = onOwnThread {
                let inherited = RealtimeScheduling.current()
                RealtimeScheduling.leave()
                return [inherited, RealtimeScheduling.current()]
            }
            return (warning, child)
        }
        if warning == nil {
            #expect(child == ["SCHED_FIFO 10", "SCHED_OTHER"])
        } else {
            #expect(child == ["SCHED_OTHER", "SCHED_OTHER"])
        }
    }

    /// A refused request (here a priority beyond SCHED_FIFO's 99, which the system refuses to anyone)
    /// changes nothing, and the warning names the reason and both fixes.
    @Test func aRefusalNamesTheFix() {
        let (warning, policy) = onOwnThread { (RealtimeScheduling.enter(priority: 100), RealtimeScheduling.current()) }
        #expect(warning?.contains("Invalid argument") == true)
        #expect(warning?.contains("LimitRTPRIO=100") == true)
        #expect(policy == "SCHED_OTHER")
    }
}
