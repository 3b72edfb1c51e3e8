// EventLoopTests: the epoll loop's descriptors, timers, signals and clock.
import BoothCore
import BoothSystem
import BoothTime
import CBoothSys
import Dispatch
import Glibc
import Testing

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct EventLoopTests {
    @Test func timersFireInDeadlineOrderAtOrAfterTheirDeadline() throws {
        let loop = try EventLoop()
        let start = loop.now()
        var fired: [(Int, Instant)] = []
        for (i, ms) in [30, 10, 20, 10].enumerated() {
            loop.schedule(at: start.advanced(by: .milliseconds(Int64(ms)))) { fired.append((i, loop.now())) }
        }
        let cancelled = loop.schedule(at: start.advanced(by: .milliseconds(15))) {
            fired.append((99, loop.now()))
        }
        loop.cancel(cancelled)
        loop.schedule(at: start.advanced(by: .milliseconds(40))) { loop.stop() }
        try loop.run()
        #expect(fired.map(\.0) == [1, 3, 2, 0])
        let deadlines: [Int: Int64] = [0: 30, 1: 10, 2: 20, 3: 10]
        for (i, time) in fired {
            #expect(time >= start.advanced(by: .milliseconds(deadlines[i]!)))
        }
    }

    @Test func aPolledDescriptorsHandlerGetsTheEventsThatFiredAsPollWouldReportThem() throws {
        let loop = try EventLoop()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        var seen: [pollfd] = []
        let asked = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        try loop.register(polled: asked) { fired in
            seen.append(fired)
            var byte: UInt8 = 0
            if read(ends[0], &byte, 1) != 1 {  // the writer closed: nothing more to read
                loop.unregister(FileDescriptor(rawValue: ends[0]))
                loop.stop()
            }
        }
        var byte: UInt8 = 7
        #expect(write(ends[1], &byte, 1) == 1)
        loop.schedule(at: loop.now().advanced(by: .milliseconds(20))) { close(ends[1]) }
        try loop.run()
        #expect(seen.count == 2)
        #expect(seen.allSatisfy { $0.fd == ends[0] && $0.events == Int16(POLLIN) })
        #expect(seen.first?.revents == Int16(POLLIN))
        #expect(seen.last.map { $0.revents & Int16(POLLHUP) != 0 } == true)
    }

    @Test func aDeadlineInThePastFiresAtOnce() throws {
        let loop = try EventLoop()
        var ran = false
        loop.schedule(at: Instant(nanoseconds: 1)) {
            ran = true
            loop.stop()
        }
        try loop.run()
        #expect(ran)
    }

    @Test func aMailboxCarriesWorkFromOtherThreadsInOrder() throws {
        let loop = try EventLoop()
        let mailbox = try Mailbox<Int>()
        var received: [Int] = []
        try loop.register(readable: mailbox.fileDescriptor) {
            received += mailbox.drain()
            if received.count == 1000 { loop.stop() }
        }
        DispatchQueue.global().async {
            for i in 0..<1000 { mailbox.post(i) }
        }
        loop.schedule(at: loop.now().advanced(by: .seconds(10))) { loop.stop() }
        try loop.run()
        #expect(received == Array(0..<1000))
    }

    // Mutations this fails: a Worker that does not count its job (the clock jumps an hour before the reports), or
    // that never uncounts it (the hour is then waited for in real time, past the suite's limit).
    @Test func aVirtualClockWaitsForAWorkersJobThenSkipsAhead() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var reportedAt: [Duration] = []
        let worker = try Worker<Int>(label: "test.worker", loop: loop)
        var timerAt: Duration?
        loop.schedule(at: start.advanced(by: .seconds(3600))) {
            timerAt = loop.now().since(start)
            loop.stop()
        }
        worker.run { post in
            post(1)
            ThreadSleep.pause(for: .milliseconds(200))
            post(2)
        } then: { _ in
            reportedAt.append(loop.now().since(start))
        }
        try loop.run()
        #expect(reportedAt.count == 2)
        #expect(reportedAt.allSatisfy { $0 < .seconds(60) }, "the clock jumped while the job ran: \(reportedAt)")
        #expect(timerAt.map { $0 >= .seconds(3600) } == true, "then it skipped to the timer")
        worker.finish()
    }

    @Test func aSignalArrivesAsAnEventNotAnInterruption() throws {
        let loop = try EventLoop()
        let signals = try SignalSource(signals: [SIGUSR1])
        var got: [Int32] = []
        try loop.register(readable: signals.fileDescriptor) {
            got += signals.drain()
            loop.stop()
        }
        loop.schedule(at: loop.now().advanced(by: .milliseconds(5))) { pthread_kill(pthread_self(), SIGUSR1) }
        try loop.run()
        #expect(got == [SIGUSR1])
    }

    @Test func theLoopRunsItsAfterCallbacksHookOnceTheCallbacksAreDone() throws {
        let loop = try EventLoop()
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        defer { close(fd) }
        var order: [String] = []
        try loop.register(readable: FileDescriptor(rawValue: fd)) {
            var value: UInt64 = 0
            _ = read(fd, &value, 8)
            order.append("callback")
        }
        loop.afterCallbacks = {
            order.append("after")
            loop.stop()
        }
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
        try loop.run()
        #expect(order == ["callback", "after"])
    }
}
