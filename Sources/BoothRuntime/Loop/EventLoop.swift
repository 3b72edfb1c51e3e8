// EventLoop: the booth's one single-threaded event loop.
import BoothSystem
import BoothTime

/// The booth's one single-threaded event loop: epoll over every device's file descriptor, plus one
/// timerfd armed at the earliest absolute CLOCK_MONOTONIC deadline, so timers never drift across a
/// sequence. Nothing here sleeps or polls on a timer; work from other threads arrives through
/// eventfds (`Mailbox`).
package final class EventLoop {
    /// A registered descriptor's callback: called with the epoll events that fired.
    private typealias Handler = (Epoll.Events) -> Void

    /// Names one armed timer.
    package struct TimerToken: Hashable {
        fileprivate var id: UInt64
    }

    private let epoll: Epoll
    private let timer: TimerDescriptor
    private var handlers: [FileDescriptor: Handler] = [:]
    private var timers: [UInt64: (deadline: Instant, action: () -> Void)] = [:]
    private var nextTimerID: UInt64 = 1
    private var armedDeadline: Instant?
    private var running = false

    /// The loop's time. On a virtual clock (the simulator's `--fast` runs, tests), whenever nothing is
    /// ready and no background work is outstanding, the clock jumps to the next timer's deadline
    /// instead of waiting for it. The state machine, devices and timers run exactly as in real time;
    /// only idle waiting is skipped.
    let clock: LoopClock
    /// The workers' outstanding jobs (`Worker`, `track`): work on other threads whose result the loop must wait for
    /// in real time (a photo being saved, a print handed to CUPS); virtual time never jumps while any has one.
    private var pendingJobs: [PendingJobs] = []
    /// Runs after the callbacks of each wake-up (the events log is written there).
    var afterCallbacks: () -> Void = {}

    package init(clock: LoopClock = LoopClock()) throws(SystemError) {
        self.clock = clock
        epoll = try Epoll()
        timer = try TimerDescriptor()
        try register(timer.fileDescriptor, events: .readable) { [unowned self] _ in self.timerFired() }
    }

    /// Counts `jobs` as background work: virtual time waits while it is not empty.
    func track(_ jobs: PendingJobs) {
        pendingJobs.append(jobs)
    }

    /// Watches `fd` for input; `handler` runs on the loop thread.
    package func register(readable fd: FileDescriptor, handler: @escaping () -> Void) throws(SystemError) {
        try register(fd, events: .readable) { _ in handler() }
    }

    /// Watches `fd` for an exceptional condition (the kernel flags /proc/self/mountinfo so on a change).
    func register(exceptional fd: FileDescriptor, handler: @escaping () -> Void) throws(SystemError) {
        try register(fd, events: [.priority, .error]) { _ in handler() }
    }

    /// Watches a descriptor a library hands out for poll(2) (ALSA's) for the events it asks for; `handler`
    /// gets the descriptor with the `revents` that fired, as poll(2) would fill them in (poll's POLLIN,
    /// POLLOUT, POLLPRI, POLLERR and POLLHUP are epoll's bits), so nothing polls again.
    func register(
        polled descriptor: Epoll.PollDescriptor, handler: @escaping (Epoll.PollDescriptor) -> Void
    ) throws(SystemError) {
        try register(descriptor.fileDescriptor, events: Epoll.Events(pollEvents: descriptor.events)) { fired in
            var ready = descriptor
            ready.revents = fired.pollEvents
            handler(ready)
        }
    }

    /// Watches `fd` for `events` (readable, writable, priority ...); `handler` runs on the loop thread.
    private func register(_ fd: FileDescriptor, events: Epoll.Events, handler: @escaping Handler) throws(SystemError) {
        if handlers[fd] == nil {
            try epoll.add(fd, for: events)
        } else {
            try epoll.modify(fd, for: events)
        }
        handlers[fd] = handler
    }

    /// Stops watching `fd` (the caller still owns and closes it).
    package func unregister(_ fd: FileDescriptor) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        epoll.remove(fd)
    }

    /// Now, on the loop's clock.
    package func now() -> Instant { clock.now() }

    /// Runs `action` once when the loop's clock reaches `deadline`.
    @discardableResult
    package func schedule(at deadline: Instant, _ action: @escaping () -> Void) -> TimerToken {
        let id = nextTimerID
        nextTimerID += 1
        timers[id] = (deadline, action)
        rearm()
        return TimerToken(id: id)
    }

    /// Cancels a timer; a no-op when it already ran.
    func cancel(_ token: TimerToken) {
        guard timers.removeValue(forKey: token.id) != nil else { return }
        rearm()
    }

    /// Runs until `stop()`.
    package func run() throws(SystemError) {
        running = true
        while running {
            let skipIdle =
                clock.isVirtual && pendingJobs.allSatisfy(\.isEmpty) && !timers.isEmpty
            let count = try epoll.wait(timeout: skipIdle ? .zero : nil) { fd, events in
                guard running else { return }
                handlers[fd]?(events)
            }
            if count == 0 && skipIdle {
                skipToNextDeadline()
                continue
            }
            afterCallbacks()
        }
    }

    /// Makes `run()` return after the current callback.
    package func stop() {
        running = false
    }

    private func skipToNextDeadline() {
        guard let earliest = timers.values.map(\.deadline).min() else { return }
        clock.skip(to: earliest)
        timerFired()
        afterCallbacks()
    }

    private func timerFired() {
        timer.acknowledge()
        armedDeadline = nil
        let now = clock.now()
        let due = timers.filter { $0.value.deadline <= now }.sorted {
            ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
        }
        for (id, timer) in due {
            guard timers.removeValue(forKey: id) != nil else { continue }
            timer.action()
        }
        rearm()
    }

    private func rearm() {
        // The timerfd runs on the kernel's clock: skipped virtual time is taken off the deadline.
        let earliest = timers.values.map(\.deadline).min().map { clock.kernelInstant(of: $0) }
        guard earliest != armedDeadline else { return }
        armedDeadline = earliest
        timer.arm(at: earliest)
    }
}
