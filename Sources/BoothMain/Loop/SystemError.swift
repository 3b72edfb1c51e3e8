// SystemError: a failed system call.
import BoothSystem
import Glibc

/// A failed system call: the operation, what it was applied to, and errno.
struct SystemError: Error, CustomStringConvertible {
    /// The call, e.g. "epoll_ctl".
    var operation: String
    /// What it was applied to (a path, a device, a descriptor).
    var subject: String
    /// errno after the call.
    var errno: Int32

    /// Captures the current errno.
    init(_ operation: String, _ subject: String = "", errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
    }

    var description: String {
        let what = subject.isEmpty ? "" : " \(subject)"
        return "\(operation)\(what): \(ErrnoText.describe(errno))"
    }

    /// Runs `body` until it does not fail with EINTR; throws on -1.
    @discardableResult
    static func check(_ operation: String, _ subject: String = "", _ body: () -> Int32) throws(SystemError) -> Int32 {
        while true {
            let result = body()
            if result != -1 { return result }
            if Glibc.errno == EINTR { continue }
            throw SystemError(operation, subject)
        }
    }
}
