// SymbolicLink: where a symbolic link points (readlink), as /proc's descriptor links are read.
import Glibc

/// Where a symbolic link points: what `/proc/PID/fd/N` names (the file a process holds open).
public enum SymbolicLink {
    /// The target of the link at `path` (at most 4 KiB); nil when it is no link or cannot be read.
    /// The corresponding C function is `readlink`.
    public static func target(at path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                readlink(path, $0, bytes.count - 1)
            }
        }
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length], as: UTF8.self)
    }
}
