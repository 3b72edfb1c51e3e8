// Tests for WAVDecoder: accepted formats decode exactly, refused ones say why and how to fix it.

import BoothTestSupport
import Testing

@testable import SoundOutput

@Suite struct WAVDecoderTests {
    typealias F = WAVFixtures

    func reason(_ bytes: [UInt8]) -> SoundFileError.Reason? {
        do {
            _ = try WAVDecoder.decode(bytes, file: "test.wav")
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func mono16BitDecodesExactly() throws {
        let samples: [Int16] = [0, 1, -1, 32_767, -32_768, 1234]
        let buffer = try WAVDecoder.decode(F.pcm16(samples, rate: 44_100), file: "a.wav")
        #expect(buffer == PCMBuffer(samples: samples, sampleRate: 44_100, channels: 1))
    }

    @Test func stereoKeepsChannelOrder() throws {
        let samples: [Int16] = [100, -100, 200, -200, 300, -300]
        let buffer = try WAVDecoder.decode(F.pcm16(samples, channels: 2), file: "s.wav")
        #expect(buffer.channels == 2)
        #expect(buffer.frameCount == 3)
        #expect(buffer.samples == samples)
    }

    @Test func bit24KeepsTopSixteenBits() throws {
        // 0x123456 -> 0x1234 (+ rounding of 0x56 < 0x80), -2 (0xFFFFFE) -> 0, 0x7FFFFF -> 32767, 0x800000 -> -32768
        let data: [UInt8] = [
            0x56, 0x34, 0x12, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x00, 0x80, 0x80, 0x34, 0x12, 0x00, 0xFF, 0xFF,
        ]
        let bytes = F.riff(
            F.chunk("fmt ", F.formatBody(tag: 1, channels: 2, rate: 96_000, bits: 24)) + F.chunk("data", data))
        let buffer = try WAVDecoder.decode(bytes, file: "24.wav")
        #expect(buffer.channels == 2)
        #expect(buffer.sampleRate == 96_000)
        #expect(buffer.samples == [0x1234, 0, 32_767, -32_768, 0x1235, -1])
    }

    @Test func extensiblePCMIsAccepted() throws {
        var body = F.formatBody(tag: 0xFFFE, channels: 1, rate: 48_000, bits: 16)
        body += F.le16(22) + F.le16(16) + F.le32(4)  // cbSize, valid bits, channel mask
        body += F.le16(1) + [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let bytes = F.riff(F.chunk("fmt ", body) + F.chunk("LIST", [1, 2, 3]) + F.chunk("data", F.le16(7) + F.le16(9)))
        #expect(try WAVDecoder.decode(bytes, file: "x.wav").samples == [7, 9])
    }

    @Test func notRIFFIsRefused() {
        #expect(reason(Array("ID3\u{3}this is an mp3 really".utf8)) == .notWAV)
        #expect(reason([]) == .notWAV)
    }

    @Test func floatIsRefused() {
        let bytes = F.riff(
            F.chunk("fmt ", F.formatBody(tag: 3, channels: 1, rate: 48_000, bits: 32)) + F.chunk("data", [0, 0, 0, 0]))
        #expect(reason(bytes) == .unsupportedEncoding("32-bit floating point"))
    }

    @Test func eightBitIsRefused() {
        let bytes = F.riff(
            F.chunk("fmt ", F.formatBody(tag: 1, channels: 1, rate: 8_000, bits: 8)) + F.chunk("data", [128, 129]))
        #expect(reason(bytes) == .unsupportedEncoding("8-bit PCM"))
    }

    @Test func adpcmIsRefused() {
        let bytes = F.riff(
            F.chunk("fmt ", F.formatBody(tag: 0x11, channels: 1, rate: 8_000, bits: 4)) + F.chunk("data", [0, 0]))
        #expect(reason(bytes) == .unsupportedEncoding("ADPCM compression"))
    }

    @Test func sixSecondsIsTooLong() {
        let bytes = F.pcm16([Int16](repeating: 5, count: 6 * 8_000), rate: 8_000)
        #expect(reason(bytes) == .tooLong(length: .seconds(6), limit: .seconds(5)))
    }

    @Test func truncatedDataIsRefused() {
        let whole = F.pcm16([Int16](repeating: 5, count: 100))
        guard case .truncated = reason(Array(whole.prefix(whole.count - 10))) else {
            Issue.record("truncated file accepted")
            return
        }
        guard case .truncated = reason(Array(whole.prefix(30))) else {
            Issue.record("file cut inside the format chunk accepted")
            return
        }
    }

    @Test func missingDataChunkIsRefused() {
        let bytes = F.riff(F.chunk("fmt ", F.formatBody(tag: 1, channels: 1, rate: 48_000, bits: 16)))
        #expect(reason(bytes) == .truncated("no data chunk"))
    }

    @Test func oddFormatsAreRefused() {
        let threeChannels = F.riff(
            F.chunk("fmt ", F.formatBody(tag: 1, channels: 3, rate: 48_000, bits: 16))
                + F.chunk("data", [0, 0, 0, 0, 0, 0]))
        #expect(reason(threeChannels) == .unsupportedChannelCount(3))
        #expect(reason(F.pcm16([1, 2], rate: 192_000)) == .unsupportedSampleRate(192_000))
        #expect(reason(F.pcm16([])) == .empty)
    }

    @Test func tooLargeIsRefusedBeforeParsing() {
        let bytes = [UInt8](repeating: 0, count: WAVDecoder.maximumBytes + 1)
        #expect(reason(bytes) == .tooLarge(bytes: WAVDecoder.maximumBytes + 1, limit: WAVDecoder.maximumBytes))
    }

    @Test func messagesNameTheFileReasonAndFix() {
        let float = SoundFileError(file: "moo.wav", reason: .unsupportedEncoding("32-bit floating point"))
        #expect(float.description.contains("'moo.wav'"))
        #expect(float.description.contains("32-bit floating point"))
        #expect(float.description.contains("Fix: re-export it as WAV, 16-bit PCM"))
        let long = SoundFileError(file: "song.wav", reason: .tooLong(length: .seconds(6), limit: .seconds(5)))
        #expect(long.description.contains("lasts 6.0 s; the limit is 5.0 s"))
        #expect(long.description.contains("Fix: trim"))
        let notWAV = SoundFileError(file: "x.wav", reason: .notWAV)
        #expect(notWAV.description.contains("not a WAV file"))
        let truncated = SoundFileError(file: "t.wav", reason: .truncated("no data chunk"))
        #expect(truncated.description.contains("damaged or incomplete (no data chunk)"))
    }
}
