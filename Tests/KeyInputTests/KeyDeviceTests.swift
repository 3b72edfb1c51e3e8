// KeyDeviceTests: a device's event records read as keys, with the kernel's times, and its errors with their fixes.
import BoothSystem
import BoothTime
import Glibc
import Testing

@testable import KeyInput

@Suite struct KeyDeviceTests {
    /// The kernel's record (struct input_event on a 64-bit kernel): seconds and microseconds, type, code, value.
    private func record(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: microseconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

    /// A device reading the far end of a pipe `records` were written to, with the write end left open or closed.
    private func device(_ records: [[UInt8]]) throws -> (KeyDevice, Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let bytes = records.flatMap { $0 }
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        return (KeyDevice(descriptor: ends[0], path: "/dev/input/event9", name: "AB Shutter3"), ends[1])
    }

    @Test func theRecordIsTheKernelsSize() {
        #expect(KeyDevice.recordSize == 24)
    }

    @Test func keysAreReadWithTheirActionsAndTimesAndTheRestIsLeftOut() throws {
        let (device, writer) = try device([
            record(seconds: 12, microseconds: 345_678, type: 4, code: 4, value: 0x000c_00e9),  // EV_MSC scan code
            record(seconds: 12, microseconds: 345_678, type: 1, code: 115, value: 1),  // KEY_VOLUMEUP down
            record(seconds: 12, microseconds: 345_678, type: 0, code: 0, value: 0),  // SYN_REPORT
            record(seconds: 12, microseconds: 400_001, type: 1, code: 115, value: 2),  // repeat
            record(seconds: 12, microseconds: 512_000, type: 1, code: 115, value: 0),  // up
            record(seconds: 13, microseconds: 0, type: 1, code: 28, value: 7),  // no action the kernel sends
        ])
        defer { close(writer) }
        let keys = try device.read()
        #expect(
            keys == [
                KeyEvent(code: 115, action: .pressed, time: Instant(nanoseconds: 12_345_678_000)),
                KeyEvent(code: 115, action: .repeated, time: Instant(nanoseconds: 12_400_001_000)),
                KeyEvent(code: 115, action: .released, time: Instant(nanoseconds: 12_512_000_000)),
            ])
        #expect(try device.read() == [])
    }

    @Test func moreThanOneBufferIsReadWhole() throws {
        let records = (0..<150).map {
            record(seconds: 1, microseconds: Int64($0), type: 1, code: 28, value: Int32($0 % 2))
        }
        let (device, writer) = try device(records)
        defer { close(writer) }
        let keys = try device.read()
        #expect(keys.count == 150)
        #expect(keys.last?.time == Instant(nanoseconds: 1_000_149_000))
    }

    @Test func aNodeThatIsNoInputDeviceIsRefusedWithTheFix() throws {
        #expect {
            try KeyDevice(path: "/dev/null")
        } throws: { error in
            guard let error = error as? KeyDeviceError else { return false }
            return error.operation == .open && error.code == .inappropriateIOCTLForDevice
                && "\(error)".contains("not an input device") && !error.isGone
        }
    }

    @Test func aMissingNodeIsGone() throws {
        #expect {
            try KeyDevice(path: "/dev/input/event-none")
        } throws: { error in
            guard let error = error as? KeyDeviceError else { return false }
            return error.isGone && "\(error)".contains("taken again when it returns")
        }
    }

    @Test func permissionAndBusyErrorsNameTheirFixes() {
        let denied = KeyDeviceError(.open, "/dev/input/event2", code: .permissionDenied)
        #expect("\(denied)".contains("booth remote list"))
        let busy = KeyDeviceError(.grab, "/dev/input/event2", code: .resourceBusy)
        #expect("\(busy)".hasPrefix("take input device /dev/input/event2"))
        #expect("\(busy)".contains("stop that program"))
    }
}
