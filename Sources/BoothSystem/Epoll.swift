import BoothTime
// Epoll: an epoll instance, the descriptors it watches and the wait until one of them is ready.
import CBoothSys
import Glibc

/// An epoll instance: the descriptors it watches, for which events, and the wait until one is ready (the event
/// loop's one place of waiting). Closed when released.
public final class Epoll {
    /// What a descriptor is watched for, or what fired: epoll's bits, which are poll(2)'s (POLLIN, POLLOUT, POLLPRI,
    /// POLLERR and POLLHUP have the same values).
    public struct Events: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32

        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Input is ready (EPOLLIN).
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        /// Output would not block (EPOLLOUT).
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        /// An exceptional condition (EPOLLPRI): /proc/self/mountinfo flags a change so.
        public static let priority = Events(rawValue: EPOLLPRI.rawValue)
        /// An error on the descriptor (EPOLLERR).
        public static let error = Events(rawValue: EPOLLERR.rawValue)
        /// The other end hung up (EPOLLHUP).
        public static let hangUp = Events(rawValue: EPOLLHUP.rawValue)

        /// poll(2)'s `events` or `revents` bits as epoll's (the same bits).
        public init(pollEvents: Int16) { self.init(rawValue: UInt32(UInt16(bitPattern: pollEvents))) }

        /// These events as poll(2)'s `revents` would have them.
        public var pollEvents: Int16 { Int16(truncatingIfNeeded: rawValue) }
    }

    /// A descriptor a library hands out for poll(2) (ALSA's), with the events it asks for (`events`) and those that
    /// fired (`revents`): the C library's `pollfd`.
    public typealias PollDescriptor = pollfd

    private let descriptor: Int32
    /// Where `epoll_wait` puts the ready descriptors: at most this many per wait.
    private var ready: [epoll_event]

    /// A new epoll instance, reporting up to `capacity` ready descriptors per `wait`.
    /// The corresponding C function is `epoll_create1` (with EPOLL_CLOEXEC).
    public init(capacity: Int = 32) throws(SystemError) {
        descriptor = try SystemError.check("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        ready = [epoll_event](repeating: epoll_event(), count: capacity)
    }

    deinit {
        close(descriptor)
    }

    /// Watches `fd` for `events`. The corresponding C function is `epoll_ctl` with EPOLL_CTL_ADD.
    public func add(_ fd: FileDescriptor, for events: Events) throws(SystemError) {
        try control(EPOLL_CTL_ADD, fd, events)
    }

    /// Watches `fd`, already watched, for `events` instead. The corresponding C function is `epoll_ctl` with
    /// EPOLL_CTL_MOD.
    public func modify(_ fd: FileDescriptor, for events: Events) throws(SystemError) {
        try control(EPOLL_CTL_MOD, fd, events)
    }

    /// Stops watching `fd`; a failure is ignored (a descriptor closed already is watched no more anyway).
    /// The corresponding C function is `epoll_ctl` with EPOLL_CTL_DEL.
    public func remove(_ fd: FileDescriptor) {
        _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, fd.rawValue, nil)
    }

    /// Waits until a watched descriptor is ready or `timeout` passed (nil: no limit; zero: no wait), then
    /// calls `body` with each ready descriptor and what fired, in the kernel's order; returns how many were ready.
    /// A wait a signal interrupts is waited again. The corresponding C function is `epoll_wait`.
    @discardableResult
    public func wait(
        timeout: Duration?, _ body: (_ fd: FileDescriptor, _ events: Events) -> Void
    ) throws(SystemError) -> Int {
        let capacity = Int32(ready.count)
        // epoll_wait counts whole milliseconds: a part of one is waited as a whole one, never as no wait.
        let milliseconds = timeout.map { Int32(clamping: max(($0.inNanoseconds + 999_999) / 1_000_000, 0)) } ?? -1
        let count = Int(try SystemError.check("epoll_wait") { epoll_wait(descriptor, &ready, capacity, milliseconds) })
        for i in 0..<count {
            let event = ready[i]
            body(FileDescriptor(rawValue: event.data.fd), Events(rawValue: event.events))
        }
        return count
    }

    private func control(_ operation: Int32, _ fd: FileDescriptor, _ events: Events) throws(SystemError) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.fd = fd.rawValue
        try SystemError.check("epoll_ctl", "fd \(fd.rawValue)") {
            epoll_ctl(descriptor, operation, fd.rawValue, &event)
        }
    }
}

extension Epoll.PollDescriptor {
    /// The descriptor a library hands out for poll(2), swift-system's type.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: fd) }
}
