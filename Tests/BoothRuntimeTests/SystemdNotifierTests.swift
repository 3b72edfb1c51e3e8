// SystemdNotifierTests: the notify messages reach their socket, and the watchdog is pinged by the loop alone.
import BoothCore
import BoothTestSupport
import BoothTime
import Dispatch
import Glibc
import Testing

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct SystemdNotifierTests {
    /// A datagram socket bound where systemd's would be; `drain()` takes every message waiting.
    final class NotifySocket: Sendable {
        let fd: Int32
        let path: String

        /// Bound at a fresh file path, or in the abstract namespace (`@name`).
        init(abstract: Bool = false) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(fd >= 0)
            let name = "heylook-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            path = abstract ? "@\(name)" : "\(temporaryDirectory())/\(name)"
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = abstract ? [0] + Array(name.utf8) : Array(path.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in bytes.enumerated() { raw[i] = b }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            try #require(bound == 0, "bind: \(errno)")
        }

        deinit { close(fd) }

        /// Every message waiting now, in order (never blocks).
        func drain() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { return messages }
                messages.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
        }
    }

    @Test(arguments: [false, true])
    func messagesReachTheNotifySocket(abstract: Bool) throws {
        let socket = try NotifySocket(abstract: abstract)
        let notifier = SystemdNotifier(socketPath: socket.path, watchdog: nil)
        notifier.notify("READY=1")
        notifier.notify("STOPPING=1")
        #expect(socket.drain() == ["READY=1", "STOPPING=1"])
    }

    /// A notify socket nobody reads (systemd busy) fills after a few messages; further messages are dropped, never
    /// waited for. Mutation: a blocking send (as the notifier had) hangs here, holding the loop thread.
    @Test func aFullNotifySocketNeverHoldsTheLoop() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(socketPath: socket.path, watchdog: nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for _ in 0..<1000 { notifier.notify("WATCHDOG=1") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "a send waited for the reader")
        let queued = socket.drain()
        #expect(!queued.isEmpty && queued.count < 1000, "the queue's length, not every message: \(queued.count)")
    }

    /// The booth's notifier is the one systemd's environment asks for. With `NOTIFY_SOCKET` naming the test's socket
    /// and `WATCHDOG_USEC` 100 ms, READY=1 and then a WATCHDOG=1 every 50 ms reach it: at 0, 50 and 100 ms of a
    /// 120 ms run (virtual time, so exactly three). Without `NOTIFY_SOCKET` the same run sends nothing there and
    /// nothing fails. Fails if the environment's socket is not used (mutation: `socketPath: nil` in
    /// `init(environment:)`, which the old test, a notifier made without a socket that asserted nothing, passed), or
    /// if `WATCHDOG_USEC` is not halved (mutation: `$0 * 1000`: two pings).
    @Test func theEnvironmentsNotifySocketGetsReadyAndThePingsAndWithoutOneNothingIsSent() throws {
        let socket = try NotifySocket()
        for named in [true, false] {
            var environment = ["WATCHDOG_USEC": "100000"]
            if named { environment["NOTIFY_SOCKET"] = socket.path }
            let loop = try EventLoop(clock: LoopClock(virtual: true))
            let notifier = SystemdNotifier(environment: { environment[$0] })
            notifier.notify("READY=1")
            notifier.start(on: loop)
            loop.schedule(at: loop.now().advanced(by: .milliseconds(120))) { loop.stop() }
            try loop.run()
            let expected = named ? ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"] : []
            #expect(socket.drain() == expected, "NOTIFY_SOCKET \(named ? "set" : "unset")")
        }
    }

    /// The watchdog is pinged from the loop's own timer: while a callback holds the loop thread, no ping goes out
    /// (so systemd restarts a stuck loop), and once it returns the pings resume. Deterministic: the blocked
    /// callback and a helper thread hand over through semaphores, so every ping counted "during" was sent while
    /// the loop thread was held. Mutation: pinging from a thread of its own (as `system-watchdog`'s SIGSTOP, which
    /// stops every thread, could not tell) sends about 12 pings during the 600 ms and fails this.
    @Test func theWatchdogIsPingedByTheLoopAloneAndStopsWhileTheLoopIsHeld() throws {
        let socket = try NotifySocket()
        let loop = try EventLoop()
        let notifier = SystemdNotifier(socketPath: socket.path, watchdog: .milliseconds(100))  // A ping every 50 ms.
        let (held, drained, releasing, counted) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
            DispatchSemaphore(value: 0)
        )
        nonisolated(unsafe) var before: [String] = []
        nonisolated(unsafe) var during: [String] = []
        DispatchQueue.global().async {
            held.wait()
            before = socket.drain()
            drained.signal()
            releasing.wait()
            during = socket.drain()
            counted.signal()
        }
        notifier.start(on: loop)
        let start = loop.now()
        loop.schedule(at: start.advanced(by: .milliseconds(120))) {
            held.signal()
            drained.wait()
            usleep(600_000)  // The loop thread held: a callback stuck on something.
            releasing.signal()
            counted.wait()
        }
        loop.schedule(at: start.advanced(by: .milliseconds(900))) { loop.stop() }
        try loop.run()
        let after = socket.drain()
        #expect(before.count >= 1 && before.allSatisfy { $0 == "WATCHDOG=1" }, "pinged before: \(before)")
        #expect(during.isEmpty, "pinged while the loop was held: \(during)")
        #expect(after.count >= 1 && after.allSatisfy { $0 == "WATCHDOG=1" }, "pinged after: \(after)")
    }
}
