// WorkingDirectory: the process's current folder (getcwd), which relative paths start from.
import Glibc

/// The folder a relative path the user typed is relative to.
public enum WorkingDirectory {
    /// The current folder's absolute path, or nil when it cannot be had (removed, longer than PATH_MAX). The
    /// corresponding C function is `getcwd`.
    public static func current() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
