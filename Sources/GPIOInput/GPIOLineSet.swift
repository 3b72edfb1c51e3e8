// GPIOLineSet: the booth's requested input and output lines on one chip, with pollable fds.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The input lines (buttons, encoder contacts; both-edge events) and output lines (lamps) the
/// booth holds on one chip. Lines are released and the chip closed on deinit.
///
/// Single-threaded: poll `fileDescriptors` for readability in the event loop, then call
/// `readEdges()`, which never blocks.
public final class GPIOLineSet {
    /// The chip the lines are on.
    public let chip: GPIOChipInfo
    /// The input specs, in the order `GPIOEdge.input` indexes.
    public let inputs: [InputLineSpec]
    /// The output specs, in the order `setOutput` indexes.
    public let outputs: [OutputLineSpec]
    /// Resolved offsets of `inputs`.
    public let inputOffsets: [Int]
    /// Resolved offsets of `outputs`.
    public let outputOffsets: [Int]
    /// Fds that become readable (POLLIN) when edges are pending: one with libgpiod v2, one per
    /// input with v1, none without inputs. Owned by this object: do not close them.
    public let fileDescriptors: [Int32]

    private let openChip: GPIOChip
    private let request: OpaquePointer

    /// Opens the chip and requests the lines under `consumer`; outputs start logically low.
    /// - Throws: `GPIOError` naming the chip, the line and the fix.
    public init(
        chip selector: ChipSelector, inputs: [InputLineSpec], outputs: [OutputLineSpec],
        consumer: String = "heylook-booth"
    ) throws(GPIOError) {
        guard !inputs.isEmpty || !outputs.isEmpty else {
            throw .invalidConfiguration("no input or output lines to request")
        }
        let chip = try GPIOChip(selector)
        let inputLines = inputs.map { GPIOError.Line(role: $0.role, selector: $0.line) }
        let outputLines = outputs.map { GPIOError.Line(role: $0.role, selector: $0.line) }
        var resolved: [GPIOError.Line] = []
        for line in inputLines + outputLines {
            var line = line
            line.offset = try chip.offset(of: line)
            if let other = resolved.first(where: { $0.offset == line.offset }) {
                throw .invalidConfiguration(
                    "'\(other.role)' and '\(line.role)' both use offset \(line.offset ?? -1) on \(chip.displayName)")
            }
            resolved.append(line)
        }
        for spec in inputs where spec.kernelDebounceMicroseconds < 0 {
            throw .invalidConfiguration("kernel debounce of '\(spec.role)' is negative")
        }
        let offsets = resolved.map { $0.offset ?? -1 }
        let inputOffsets = Array(offsets.prefix(inputs.count))
        let outputOffsets = Array(offsets.dropFirst(inputs.count))

        let request: OpaquePointer
        do throws(LibGPIOD.Failure) {
            request = try LibGPIOD.requestLines(
                chip.handle,
                inputs: zip(inputs, inputOffsets).map { spec, offset in
                    LibGPIOD.Input(
                        offset: offset, bias: spec.bias, activeLow: spec.activeLow,
                        debounceMicroseconds: spec.kernelDebounceMicroseconds)
                },
                outputs: zip(outputs, outputOffsets).map { spec, offset in
                    LibGPIOD.Output(offset: offset, activeLow: spec.activeLow)
                },
                consumer: consumer)
        } catch {
            throw Self.requestError(error.code, chip: chip, lines: resolved, consumer: consumer)
        }
        let fileDescriptors: [Int32]
        do throws(LibGPIOD.Failure) {
            fileDescriptors = try LibGPIOD.fileDescriptors(request)
        } catch {
            LibGPIOD.releaseLines(request)
            throw GPIOChip.deviceError(.requestLines, device: chip.displayName, line: nil, error.code)
        }

        self.chip = chip.info
        self.inputs = inputs
        self.outputs = outputs
        self.inputOffsets = inputOffsets
        self.outputOffsets = outputOffsets
        self.fileDescriptors = fileDescriptors
        self.openChip = chip
        self.request = request
    }

    deinit {
        LibGPIOD.releaseLines(request)
    }

    /// Returns every pending edge without blocking, oldest first (by kernel timestamp; edges of
    /// one input keep kernel order). Empty if none are pending.
    public func readEdges() throws(GPIOError) -> [GPIOEdge] {
        let raw: [LibGPIOD.Edge]
        do throws(LibGPIOD.Failure) {
            raw = try LibGPIOD.readEdges(request)
        } catch {
            throw GPIOChip.deviceError(.readEdges, device: openChip.displayName, line: nil, error.code)
        }
        let edges = raw.map {
            GPIOEdge(input: $0.input, level: $0.rising, timestampNanoseconds: $0.timestampNanoseconds)
        }
        guard fileDescriptors.count > 1 else { return edges }
        // libgpiod v1 reads one fd per input: merge by timestamp, keeping per-input order.
        return edges.enumerated()
            .sorted { ($0.element.timestampNanoseconds, $0.offset) < ($1.element.timestampNanoseconds, $1.offset) }
            .map(\.element)
    }

    /// Reads the logical level of every input now, in `inputs` order (e.g. an encoder's resting
    /// phase at startup).
    public func inputLevels() throws(GPIOError) -> [Bool] {
        var levels: [Bool] = []
        for index in inputs.indices {
            do throws(LibGPIOD.Failure) {
                levels.append(try LibGPIOD.inputValue(request, index: index))
            } catch {
                throw GPIOChip.deviceError(.readValue, device: openChip.displayName, line: inputLine(index), error.code)
            }
        }
        return levels
    }

    /// Sets the logical level of output `index` (an index into `outputs`).
    public func setOutput(_ index: Int, _ value: Bool) throws(GPIOError) {
        guard outputs.indices.contains(index) else {
            throw .invalidConfiguration("output index \(index) is out of range (\(outputs.count) outputs)")
        }
        do throws(LibGPIOD.Failure) {
            try LibGPIOD.setOutputValue(request, index: index, value)
        } catch {
            let line = GPIOError.Line(
                role: outputs[index].role, selector: outputs[index].line, offset: outputOffsets[index])
            throw GPIOChip.deviceError(.setValue, device: openChip.displayName, line: line, error.code)
        }
    }

    private func inputLine(_ index: Int) -> GPIOError.Line {
        GPIOError.Line(role: inputs[index].role, selector: inputs[index].line, offset: inputOffsets[index])
    }

    /// Maps a failed request; on EBUSY asks the kernel which line is held and by whom.
    private static func requestError(
        _ code: Int32, chip: GPIOChip, lines: [GPIOError.Line], consumer: String
    ) -> GPIOError {
        guard code == EBUSY else {
            return GPIOChip.deviceError(
                .requestLines, device: chip.displayName, line: lines.count == 1 ? lines[0] : nil, code)
        }
        for line in lines {
            guard let offset = line.offset, let info = try? chip.lineInfo(offset: offset), info.isUsed else {
                continue
            }
            return .lineBusy(chip: chip.displayName, line: line, consumer: info.consumer)
        }
        return .lineBusy(chip: chip.displayName, line: nil, consumer: nil)
    }
}
