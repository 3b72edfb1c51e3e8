// Mailbox: hands results from worker threads to the event loop.
import CBoothSys
import Glibc
import Synchronization

/// Hands results from worker threads to the event loop: `post` appends under a lock and signals an
/// eventfd that the loop watches; the loop's handler `drain`s on its own thread.
final class Mailbox<Message: Sendable>: Sendable {
    /// The eventfd the loop registers.
    let fileDescriptor: Int32
    private let messages = Mutex<[Message]>([])

    init() throws(SystemError) {
        fileDescriptor = try SystemError.check("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Any thread: queue `message` and wake the loop.
    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, 8)
    }

    /// The loop thread: everything posted so far, in order.
    func drain() -> [Message] {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, 8)
        return messages.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
