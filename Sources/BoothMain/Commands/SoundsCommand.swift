// SoundsCommand: `booth sounds --export DIR`.
import ArgumentParser
import BoothRuntime
import BoothSystem
import SoundOutput

/// `booth sounds --export DIR`: writes every built-in sound as the WAV file the booth plays (for tests).
struct SoundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sounds",
        abstract:
            "Write every built-in sound as a 16-bit mono WAV file (to listen to them; the hardware tests' reference)."
    )

    @Option(help: "The folder to write NAME.wav files into (must exist).")
    var export: String

    @Option(help: "Sample rate of the files, in hertz.")
    var rate = 48_000

    func run() throws {
        guard (8_000...192_000).contains(rate) else { throw ValidationError("--rate must be 8000...192000") }
        for sound in BuiltInSound.allCases {
            let path = "\(export)/\(sound.rawValue).wav"
            try write(Self.wav(SoundSynthesizer.render(sound, sampleRate: rate)), to: path)
            print(path)
        }
    }

    /// `buffer` as a RIFF/WAVE file (format 1, 16-bit little-endian).
    static func wav(_ buffer: PCMBuffer) -> [UInt8] {
        var bytes: [UInt8] = []
        func append(_ value: UInt32, size: Int) {
            for shift in stride(from: 0, to: size * 8, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        let dataBytes = UInt32(buffer.samples.count * 2)
        let blockAlign = UInt32(buffer.channels * 2)
        bytes += Array("RIFF".utf8)
        append(36 + dataBytes, size: 4)
        bytes += Array("WAVEfmt ".utf8)
        append(16, size: 4)
        append(1, size: 2)
        append(UInt32(buffer.channels), size: 2)
        append(UInt32(buffer.sampleRate), size: 4)
        append(UInt32(buffer.sampleRate) * blockAlign, size: 4)
        append(blockAlign, size: 2)
        append(16, size: 2)
        bytes += Array("data".utf8)
        append(dataBytes, size: 4)
        for sample in buffer.samples { append(UInt32(UInt16(bitPattern: sample)), size: 2) }
        return bytes
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try DurableFile().write(bytes, path: path, replacing: true)
        } catch {
            throw BoothFailure("cannot write \(path): \(ErrnoText.describe(error.errno))")
        }
    }
}
