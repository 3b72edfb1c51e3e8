// WAVFixtures: builds WAV files byte by byte for the decoder and library tests.

/// Little-endian writers for hand-made WAV files.
public enum WAVFixtures {
    public static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    public static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16((value >> 16) & 0xFFFF) }

    /// A `fmt ` chunk body of 16 bytes.
    public static func formatBody(tag: Int, channels: Int, rate: Int, bits: Int) -> [UInt8] {
        let block = channels * bits / 8
        return le16(tag) + le16(channels) + le32(rate) + le32(rate * block) + le16(block) + le16(bits)
    }

    /// A chunk: id, size, body, pad byte when odd.
    public static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    /// A RIFF/WAVE file holding `chunks`.
    public static func riff(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(4 + chunks.count) + Array("WAVE".utf8) + chunks
    }

    /// A 16-bit PCM WAV of `samples` (interleaved).
    public static func pcm16(_ samples: [Int16], rate: Int = 48_000, channels: Int = 1) -> [UInt8] {
        let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
        return riff(chunk("fmt ", formatBody(tag: 1, channels: channels, rate: rate, bits: 16)) + chunk("data", data))
    }
}
