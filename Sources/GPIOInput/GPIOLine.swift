// GPIOLine: one requested GPIO line (a button or knob contact, or a lamp) on a chip, with its pollable fd.

import BoothSystem
import BoothTime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One line the booth holds: an input (a button or an encoder contact; both-edge events) or an output
/// (a lamp, logically low at first). Released and its chip closed on deinit.
///
/// Single-threaded: poll `fileDescriptor` for readability in the event loop, then call `readEdges()`,
/// which never blocks.
public final class GPIOLine {
    /// The chip the line is on.
    public let chip: GPIOChipInfo
    /// What the line is for ("button", "knob A", "LED 1"), as errors name it.
    public let role: String
    /// How the line was asked for.
    public let selector: LineSelector
    /// The line's offset on the chip, resolved from `selector`.
    public let offset: Int
    /// Becomes readable (POLLIN) when edges are pending; nil for an output (nothing to read). Owned by
    /// this object: do not close it.
    public let fileDescriptor: FileDescriptor?

    private let openChip: GPIOChip
    private let request: OpaquePointer

    /// Opens the chip and requests `input` under `consumer`, both edges reported.
    /// - Throws: `GPIOError` naming the chip, the line and the fix.
    public convenience init(
        chip: ChipSelector, input: InputLineSpec, consumer: String = "heylook-booth"
    ) throws(GPIOError) {
        guard input.kernelDebounce >= .zero else {
            throw .invalidConfiguration("kernel debounce of '\(input.role)' is negative")
        }
        try self.init(chip: chip, role: input.role, selector: input.line, consumer: consumer) { offset in
            (
                [
                    LibGPIOD.Input(
                        offset: offset, bias: input.bias, activeLow: input.activeLow,
                        debounceMicroseconds: Int(input.kernelDebounce.inMicroseconds))
                ], []
            )
        }
    }

    /// Opens the chip and requests `output` under `consumer`, logically low.
    /// - Throws: `GPIOError` naming the chip, the line and the fix.
    public convenience init(
        chip: ChipSelector, output: OutputLineSpec, consumer: String = "heylook-booth"
    ) throws(GPIOError) {
        try self.init(chip: chip, role: output.role, selector: output.line, consumer: consumer) { offset in
            ([], [LibGPIOD.Output(offset: offset, activeLow: output.activeLow)])
        }
    }

    private init(
        chip selector: ChipSelector, role: String, selector line: LineSelector, consumer: String,
        lines: (Int) -> ([LibGPIOD.Input], [LibGPIOD.Output])
    ) throws(GPIOError) {
        let chip = try GPIOChip(selector)
        var named = GPIOError.Line(role: role, selector: line)
        let offset = try chip.offset(of: named)
        named.offset = offset
        let (inputs, outputs) = lines(offset)
        let request: OpaquePointer
        do throws(LibGPIOD.Failure) {
            request = try LibGPIOD.requestLines(chip.handle, inputs: inputs, outputs: outputs, consumer: consumer)
        } catch {
            throw Self.requestError(error.code, chip: chip, line: named)
        }
        var fileDescriptor: FileDescriptor?
        if !inputs.isEmpty {
            do throws(LibGPIOD.Failure) {
                fileDescriptor = try LibGPIOD.fileDescriptors(request).first.map(FileDescriptor.init(rawValue:))
            } catch {
                LibGPIOD.releaseLines(request)
                throw GPIOChip.deviceError(.requestLines, device: chip.displayName, line: named, error.code)
            }
        }
        self.chip = chip.info
        self.role = role
        self.selector = line
        self.offset = offset
        self.fileDescriptor = fileDescriptor
        self.openChip = chip
        self.request = request
    }

    deinit {
        LibGPIOD.releaseLines(request)
    }

    /// Every pending edge of an input, oldest first, without blocking. Empty if none are pending.
    public func readEdges() throws(GPIOError) -> [GPIOEdge] {
        do throws(LibGPIOD.Failure) {
            return try LibGPIOD.readEdges(request).map {
                GPIOEdge(level: $0.rising, time: $0.time)
            }
        } catch {
            throw GPIOChip.deviceError(.readEdges, device: openChip.displayName, line: line, error.code)
        }
    }

    /// The input's logical level now (e.g. an encoder's resting phase at startup).
    public func level() throws(GPIOError) -> Bool {
        do throws(LibGPIOD.Failure) {
            return try LibGPIOD.inputValue(request, index: 0)
        } catch {
            throw GPIOChip.deviceError(.readValue, device: openChip.displayName, line: line, error.code)
        }
    }

    /// Sets the output's logical level.
    public func set(_ value: Bool) throws(GPIOError) {
        do throws(LibGPIOD.Failure) {
            try LibGPIOD.setOutputValue(request, index: 0, value)
        } catch {
            throw GPIOChip.deviceError(.setValue, device: openChip.displayName, line: line, error.code)
        }
    }

    /// The line as errors name it.
    private var line: GPIOError.Line { GPIOError.Line(role: role, selector: selector, offset: offset) }

    /// Maps a failed request; on EBUSY asks the kernel who holds the line.
    private static func requestError(_ code: Int32, chip: GPIOChip, line: GPIOError.Line) -> GPIOError {
        guard code == EBUSY else {
            return GPIOChip.deviceError(.requestLines, device: chip.displayName, line: line, code)
        }
        let info = line.offset.flatMap { try? chip.lineInfo(offset: $0) }
        return .lineBusy(chip: chip.displayName, line: line, consumer: info?.isUsed == true ? info?.consumer : nil)
    }
}
