// StandardStream: standard input, output and error as descriptors: terminal or not, unbuffered reads and writes.
import Glibc
import SystemPackage

/// One of the process's three standard streams, below `print`'s buffer: whether it is a terminal, reads of what is
/// there now, and writes that go out at once (a status line redrawn in place, progress on standard error).
public enum StandardStream: Sendable {
    case input, output, error

    /// Its descriptor's raw value (STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO), for the C calls.
    var descriptor: Int32 {
        switch self {
        case .input: STDIN_FILENO
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Its descriptor, swift-system's type: what the event loop watches.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: descriptor) }

    /// Whether it is a terminal. The corresponding C function is `isatty`.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Makes its reads return at once when nothing is there (O_NONBLOCK, through `fcntl`), which a terminal
    /// watched by the event loop needs; a failure leaves it as it was.
    public func makeNonBlocking() {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return }
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// What there is to read now, at most `limit` bytes: empty at the end, when nothing is there (non-blocking), or
    /// when the read fails. The corresponding C function is `read`.
    public func read(upTo limit: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { raw in
            SystemError.retryingInterrupts { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Everything there is to read until its end (a script piped in), at most `limit` bytes.
    public func readAll(limit: Int) throws(FileReading.Failure) -> [UInt8] {
        try FileReading.readAll(fileDescriptor, limit: limit)
    }

    /// Writes `text` now, past `print`'s buffer, in one call where the stream takes it all (so lines from several
    /// threads never interleave); what cannot be written (a closed terminal) is dropped. The corresponding C function
    /// is `write`.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                SystemError.retryingInterrupts {
                    Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                }
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes out what `print` (the C library's stdio) holds for every stream. The corresponding C function is
    /// `fflush(NULL)`.
    public static func flushAll() {
        fflush(nil)
    }
}
