// HostName: this machine's name (gethostname), read here and nowhere else.
import Glibc

/// This machine's host name, as the kernel has it (`booth`; mDNS answers for it with `.local`).
public enum HostName {
    /// The kernel's host name, or "localhost" when it cannot be read.
    public static func current() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}
