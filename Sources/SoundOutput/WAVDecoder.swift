// WAVDecoder: RIFF/WAVE bytes (16/24-bit integer PCM, mono/stereo) to PCMBuffer, refusing anything else.

/// Decodes WAV files into `PCMBuffer`s, refusing encodings, sizes and lengths the booth does not play.
public enum WAVDecoder {
    /// Longest sound accepted, in seconds.
    public static let maximumLength: Duration = .seconds(5)
    /// Largest file accepted, in bytes.
    public static let maximumBytes = 2 * 1024 * 1024
    /// Sample rates accepted, in hertz.
    public static let sampleRates = 8_000...96_000

    /// Decodes `bytes`, the content of the file named `file` (used only in errors).
    ///
    /// Accepts RIFF/WAVE with format 1 (PCM) or WAVE_FORMAT_EXTENSIBLE with the PCM sub-format,
    /// 16- or 24-bit samples, one or two channels. 24-bit samples keep their top 16 bits (rounded).
    public static func decode(_ bytes: [UInt8], file: String) throws(SoundFileError) -> PCMBuffer {
        func fail(_ reason: SoundFileError.Reason) -> SoundFileError { SoundFileError(file: file, reason: reason) }

        guard bytes.count <= maximumBytes else { throw fail(.tooLarge(bytes: bytes.count, limit: maximumBytes)) }
        guard bytes.count >= 12, bytes.tag(at: 0) == "RIFF", bytes.tag(at: 8) == "WAVE" else {
            if bytes.count < 12, bytes.starts(with: Array("RIFF".utf8)) { throw fail(.truncated("header cut short")) }
            throw fail(.notWAV)
        }

        var format: Format?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = bytes.tag(at: offset)
            let size = Int(bytes.uint32(at: offset + 4))
            let body = offset + 8
            if id == "fmt " {
                guard size >= 16, body + size <= bytes.count else { throw fail(.truncated("format chunk cut short")) }
                format = try Format(bytes, at: body, size: size, file: file)
            } else if id == "data" {
                guard let format else { throw fail(.truncated("data chunk comes before the format chunk")) }
                guard body + size <= bytes.count else {
                    throw fail(.truncated("data chunk promises \(size) bytes, file holds \(bytes.count - body)"))
                }
                return try format.decode(bytes[body..<(body + size)], file: file)
            }
            offset = body + size + (size & 1)
        }
        throw fail(.truncated(format == nil ? "no format chunk" : "no data chunk"))
    }

    /// The fields of a `fmt ` chunk the decoder needs, already validated.
    private struct Format {
        var channels: Int
        var sampleRate: Int
        var bytesPerSample: Int

        init(_ bytes: [UInt8], at body: Int, size: Int, file: String) throws(SoundFileError) {
            func fail(_ reason: SoundFileError.Reason) -> SoundFileError { SoundFileError(file: file, reason: reason) }
            var formatTag = bytes.uint16(at: body)
            channels = Int(bytes.uint16(at: body + 2))
            sampleRate = Int(bytes.uint32(at: body + 4))
            let blockAlign = Int(bytes.uint16(at: body + 12))
            let bits = Int(bytes.uint16(at: body + 14))
            if formatTag == 0xFFFE {
                // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
                guard size >= 40 else { throw fail(.truncated("extensible format chunk cut short")) }
                formatTag = bytes.uint16(at: body + 24)
            }
            switch formatTag {
            case 1: break
            case 3: throw fail(.unsupportedEncoding("\(bits)-bit floating point"))
            case 2, 0x11: throw fail(.unsupportedEncoding("ADPCM compression"))
            case 6, 7: throw fail(.unsupportedEncoding("A-law/µ-law telephone encoding"))
            case 0x55: throw fail(.unsupportedEncoding("MP3 inside WAV"))
            default: throw fail(.unsupportedEncoding("encoding 0x\(String(formatTag, radix: 16))"))
            }
            guard bits == 16 || bits == 24 else { throw fail(.unsupportedEncoding("\(bits)-bit PCM")) }
            guard channels == 1 || channels == 2 else { throw fail(.unsupportedChannelCount(channels)) }
            guard WAVDecoder.sampleRates.contains(sampleRate) else { throw fail(.unsupportedSampleRate(sampleRate)) }
            bytesPerSample = bits / 8
            guard blockAlign == bytesPerSample * channels else {
                throw fail(.truncated("block size \(blockAlign) does not match \(channels) × \(bits)-bit"))
            }
        }

        func decode(_ data: ArraySlice<UInt8>, file: String) throws(SoundFileError) -> PCMBuffer {
            let frameBytes = bytesPerSample * channels
            let frames = data.count / frameBytes
            guard frames > 0 else { throw SoundFileError(file: file, reason: .empty) }
            let length = PCMBuffer.duration(frames: frames, sampleRate: sampleRate)
            guard length <= WAVDecoder.maximumLength else {
                throw SoundFileError(file: file, reason: .tooLong(length: length, limit: WAVDecoder.maximumLength))
            }
            var samples = [Int16](repeating: 0, count: frames * channels)
            var position = data.startIndex
            for index in samples.indices {
                if bytesPerSample == 2 {
                    samples[index] = Int16(bitPattern: UInt16(data[position]) | UInt16(data[position + 1]) << 8)
                } else {
                    let value =
                        Int32(
                            bitPattern: UInt32(data[position]) << 8 | UInt32(data[position + 1]) << 16
                                | UInt32(data[position + 2]) << 24) >> 8
                    samples[index] = Int16(clamping: (value + 128) >> 8)
                }
                position += bytesPerSample
            }
            return PCMBuffer(samples: samples, sampleRate: sampleRate, channels: channels)
        }
    }
}

extension [UInt8] {
    /// Four bytes at `offset` as ASCII, or "" when they run past the end.
    fileprivate func tag(at offset: Int) -> String {
        guard offset + 4 <= count else { return "" }
        return String(decoding: self[offset..<(offset + 4)], as: UTF8.self)
    }

    /// Little-endian UInt16 at `offset` (the caller checked the bounds).
    fileprivate func uint16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// Little-endian UInt32 at `offset` (the caller checked the bounds).
    fileprivate func uint32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16
            | UInt32(self[offset + 3]) << 24
    }
}
