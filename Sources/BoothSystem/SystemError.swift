// SystemError: a failed Linux call, with what it was applied to, errno and the fix, and the one EINTR retry.
import Glibc
import SystemPackage

/// A failed Linux call (a file system call of the store, an export or an import, a descriptor of the event loop, a
/// D-Bus call): the operation, what it was applied to and errno, with what to do about it. `check` is the one place a
/// call interrupted by a signal (EINTR) is made again.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. "fsync".
    public var operation: String
    /// What it was applied to: a path, a device, a descriptor ("fd 7"); empty when nothing names it.
    public var subject: String
    /// errno after the call.
    public var errno: Int32
    /// errno after the call, by name (`.noSuchFileOrDirectory`): what callers tell kinds apart by.
    public var code: Errno { Errno(rawValue: errno) }
    /// What the other side said when it says more than errno (a D-Bus error, the step that failed).
    public var detail: String?
    /// What to do about it, when the caller knows better than errno alone.
    public var fix: String?

    /// A failure of `operation` on `subject` with `errno` (always given: a failed call is told through `check`).
    public init(
        _ operation: String, _ subject: String = "", errno: Int32, detail: String? = nil,
        fix: String? = nil
    ) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
        self.detail = detail
        self.fix = fix
    }

    /// "op subject: [detail: ]Text (ENAME)[ — fix]": errno named by `ErrnoText`, the fix the caller's or errno's.
    public var description: String {
        var text = subject.isEmpty ? "\(operation): " : "\(operation) \(subject): "
        if let detail { text += "\(detail): " }
        text += ErrnoText.describe(errno)
        if let fix = fix ?? Self.fix(for: errno) { text += " — \(fix)" }
        return text
    }

    /// Runs `call` again while it fails with EINTR; its result, or `SystemError(operation, subject)` with errno when
    /// it returns -1 (the subject is made only then: a loop's `fd \(fd)` costs nothing on success).
    @discardableResult
    public static func check<Result: FixedWidthInteger & SignedInteger>(
        _ operation: String, _ subject: @autoclosure () -> String = "", _ call: () -> Result
    ) throws(SystemError) -> Result {
        let result = retryingInterrupts(call)
        guard result != -1 else {
            let code = Glibc.errno
            throw SystemError(operation, subject(), errno: code)
        }
        return result
    }

    /// Runs `call`, a seam's call that opens (`FileOperations.open`, `openat`), again while it fails with EINTR; the
    /// descriptor it opened, or `SystemError(operation, subject)` with errno when it answers nil.
    @discardableResult
    public static func check(
        _ operation: String, _ subject: @autoclosure () -> String = "", _ call: () -> FileDescriptor?
    ) throws(SystemError) -> FileDescriptor {
        while true {
            if let fd = call() { return fd }
            let code = Glibc.errno
            if code != EINTR { throw SystemError(operation, subject(), errno: code) }
        }
    }

    /// Runs `call`, which answers nil and sets errno when it fails (`FileOperations.names(in:)`); its answer, or
    /// `SystemError(operation, subject)` with that errno.
    public static func checkValue<Value>(
        _ operation: String, _ subject: @autoclosure () -> String = "", _ call: () -> Value?
    ) throws(SystemError) -> Value {
        guard let value = call() else {
            let code = Glibc.errno
            throw SystemError(operation, subject(), errno: code)
        }
        return value
    }

    /// Runs `call` again while it returns -1 with errno EINTR (a signal arrived first), and returns what it returned
    /// then; -1 leaves errno as the call set it. For a caller with an error of its own; `check` throws this one.
    public static func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result == -1 && Glibc.errno == EINTR { continue }
            return result
        }
    }

    /// What to do about a file system errno, where there is something to say.
    private static func fix(for code: Int32) -> String? {
        switch code {
        case ENOSPC, EDQUOT: "the disk is full: export and remove photos, or free space"
        case EROFS: "the file system is read-only: check the card or stick (write-protect switch)"
        case _ where Errno(rawValue: code).meansNotAllowed: "permission denied: the booth's user must own the folder"
        case EIO: "input/output error: the card or stick may be failing or was pulled out"
        default: nil
        }
    }
}
