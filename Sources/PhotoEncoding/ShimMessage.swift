// ShimMessage: error text from the JPEG shim.

/// Turns the shim's NUL-terminated message buffer into a String.
enum ShimMessage {
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
    }
}
