// ErrnoText: errno as text for messages, made here and nowhere else.
import CBoothSys
import Glibc

/// How every error message of the booth names an errno: the C library's text and the symbolic name,
/// e.g. "Device or resource busy (EBUSY)".
public enum ErrnoText {
    /// "Device or resource busy (EBUSY)"; "Unknown error 12345 (errno 12345)" for a code glibc does not name.
    public static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (\(name(code)))"
    }

    /// The symbolic name, "EBUSY" (glibc's strerrorname_np), or "errno N" for a code it does not name.
    public static func name(_ code: Int32) -> String {
        booth_errno_name(code).map { String(cString: $0) } ?? "errno \(code)"
    }
}
