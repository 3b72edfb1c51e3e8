// Mailbox: hands results from worker threads to the event loop.
import BoothSystem
import Synchronization

/// Hands results from worker threads to the event loop: `post` appends under a lock and signals an
/// eventfd that the loop watches; the loop's handler `drain`s on its own thread.
final class Mailbox<Message: Sendable>: Sendable {
    private let event: EventDescriptor
    private let messages = Mutex<[Message]>([])

    /// The eventfd the loop registers.
    var fileDescriptor: FileDescriptor { event.fileDescriptor }

    init() throws(SystemError) {
        event = try EventDescriptor()
    }

    /// Any thread: queue `message` and wake the loop.
    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        event.signal()
    }

    /// The loop thread: everything posted so far, in order.
    func drain() -> [Message] {
        event.take()
        return messages.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
