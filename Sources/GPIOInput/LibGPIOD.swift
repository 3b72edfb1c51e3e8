// LibGPIOD: the only file that calls the CGPIOD shim; each call returns a value or throws its errno.
import BoothSystem
import BoothTime
import CGPIOD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Thin Swift wrappers over the `booth_gpio_*` C functions, one per function.
///
/// Handles are `OpaquePointer`s owned by the caller (`GPIOChip`, `GPIOLine`). Each wrapper
/// throws `LibGPIOD.Failure` carrying `errno`; callers add the operation, device and line and
/// turn it into a `GPIOError`.
enum LibGPIOD {
    /// A failed C call: the `errno` it left.
    struct Failure: Error, Equatable {
        /// The `errno` value.
        var code: Int32

        /// Captures the current `errno`.
        static func current() -> Failure { Failure(code: Errno.current.rawValue) }
    }

    /// The libgpiod version the shim was built against. The C function is `booth_gpio_libgpiod_version`.
    static var version: String { String(cString: booth_gpio_libgpiod_version()) }

    /// Whether kernel debounce is honoured. The C function is `booth_gpio_has_kernel_debounce`.
    static var hasKernelDebounce: Bool { booth_gpio_has_kernel_debounce() }

    /// Lists chips under /dev. The C function is `booth_gpio_chip_list`.
    static func listChips() throws(Failure) -> [GPIOChipInfo] {
        var capacity = 16
        while true {
            var summaries = [booth_gpio_chip_summary](repeating: booth_gpio_chip_summary(), count: capacity)
            let found = booth_gpio_chip_list(&summaries, summaries.count)
            guard found >= 0 else { throw .current() }
            if Int(found) > capacity {
                capacity = Int(found)
                continue
            }
            return summaries.prefix(Int(found)).map { summary in
                GPIOChipInfo(
                    name: string(summary.name),
                    label: string(summary.label),
                    path: string(summary.path),
                    lineCount: Int(summary.num_lines),
                    openErrno: summary.open_errno == 0 ? nil : summary.open_errno
                )
            }
        }
    }

    /// Opens a chip by path. The C function is `booth_gpio_chip_open_by_path`.
    static func openChip(path: String) throws(Failure) -> OpaquePointer {
        guard let chip = booth_gpio_chip_open_by_path(path) else { throw .current() }
        return chip
    }

    /// Opens a chip by device name. The C function is `booth_gpio_chip_open_by_name`.
    static func openChip(name: String) throws(Failure) -> OpaquePointer {
        guard let chip = booth_gpio_chip_open_by_name(name) else { throw .current() }
        return chip
    }

    /// Opens a chip by label. The C function is `booth_gpio_chip_open_by_label`.
    static func openChip(label: String) throws(Failure) -> OpaquePointer {
        guard let chip = booth_gpio_chip_open_by_label(label) else { throw .current() }
        return chip
    }

    /// Closes a chip. The C function is `booth_gpio_chip_close`.
    static func closeChip(_ chip: OpaquePointer) {
        booth_gpio_chip_close(chip)
    }

    /// Reads a chip's identity. The C functions are `booth_gpio_chip_get_name`, `_get_label`,
    /// `_get_path` and `_get_num_lines`.
    static func chipInfo(_ chip: OpaquePointer) -> GPIOChipInfo {
        GPIOChipInfo(
            name: String(cString: booth_gpio_chip_get_name(chip)),
            label: String(cString: booth_gpio_chip_get_label(chip)),
            path: String(cString: booth_gpio_chip_get_path(chip)),
            lineCount: Int(booth_gpio_chip_get_num_lines(chip)),
            openErrno: nil
        )
    }

    /// Finds a line offset by name. The C function is `booth_gpio_chip_find_line`.
    static func findLine(_ chip: OpaquePointer, name: String) throws(Failure) -> Int {
        let offset = booth_gpio_chip_find_line(chip, name)
        guard offset >= 0 else { throw .current() }
        return Int(offset)
    }

    /// Reads what the kernel reports about a line. The C function is `booth_gpio_chip_get_line_info`.
    static func lineInfo(_ chip: OpaquePointer, offset: Int) throws(Failure) -> GPIOLineInfo {
        guard let offset = UInt32(exactly: offset) else { throw Failure(code: EINVAL) }
        var info = booth_gpio_line_info()
        guard booth_gpio_chip_get_line_info(chip, offset, &info) == 0 else { throw .current() }
        let direction: GPIOLineInfo.Direction =
            switch Int(info.direction) {
            case Int(BOOTH_GPIO_DIRECTION_INPUT.rawValue): .input
            case Int(BOOTH_GPIO_DIRECTION_OUTPUT.rawValue): .output
            default: .unknown
            }
        return GPIOLineInfo(
            offset: Int(info.offset),
            name: string(info.name),
            consumer: string(info.consumer),
            isUsed: info.used,
            direction: direction,
            isActiveLow: info.active_low
        )
    }

    /// One input line for `requestLines`, already resolved to an offset.
    struct Input {
        /// Line offset on the chip.
        var offset: Int
        /// Requested bias.
        var bias: InputLineSpec.Bias
        /// Invert the line.
        var activeLow: Bool
        /// Kernel debounce in microseconds (v2 only).
        var debounceMicroseconds: Int
    }

    /// One output line for `requestLines`, already resolved to an offset.
    struct Output {
        /// Line offset on the chip.
        var offset: Int
        /// Invert the line.
        var activeLow: Bool
    }

    /// Requests lines. The C function is `booth_gpio_request_lines`.
    static func requestLines(
        _ chip: OpaquePointer, inputs: [Input], outputs: [Output], consumer: String
    ) throws(Failure) -> OpaquePointer {
        var inputConfigs: [booth_gpio_input_config] = []
        for input in inputs {
            guard let offset = UInt32(exactly: input.offset),
                let debounce = UInt32(exactly: input.debounceMicroseconds)
            else { throw Failure(code: EINVAL) }
            let bias: booth_gpio_bias =
                switch input.bias {
                case .pullUp: BOOTH_GPIO_BIAS_PULL_UP
                case .pullDown: BOOTH_GPIO_BIAS_PULL_DOWN
                case .none: BOOTH_GPIO_BIAS_DISABLED
                }
            inputConfigs.append(
                booth_gpio_input_config(
                    offset: offset, bias: Int32(bias.rawValue), active_low: input.activeLow,
                    debounce_us: debounce))
        }
        var outputConfigs: [booth_gpio_output_config] = []
        for output in outputs {
            guard let offset = UInt32(exactly: output.offset) else { throw Failure(code: EINVAL) }
            outputConfigs.append(
                booth_gpio_output_config(offset: offset, active_low: output.activeLow, initial_value: 0))
        }
        let request = inputConfigs.withUnsafeBufferPointer { inputBuffer in
            outputConfigs.withUnsafeBufferPointer { outputBuffer in
                booth_gpio_request_lines(
                    chip, inputBuffer.baseAddress, inputBuffer.count, outputBuffer.baseAddress,
                    outputBuffer.count, consumer)
            }
        }
        guard let request else { throw .current() }
        return request
    }

    /// Releases lines. The C function is `booth_gpio_request_release`.
    static func releaseLines(_ request: OpaquePointer) {
        booth_gpio_request_release(request)
    }

    /// The request's pollable fds. The C functions are `booth_gpio_request_get_num_fds` and `_get_fd`.
    static func fileDescriptors(_ request: OpaquePointer) throws(Failure) -> [Int32] {
        var fds: [Int32] = []
        for index in 0..<booth_gpio_request_get_num_fds(request) {
            let fd = booth_gpio_request_get_fd(request, index)
            guard fd >= 0 else { throw .current() }
            fds.append(fd)
        }
        return fds
    }

    /// A raw edge: input index, rising or falling, kernel time.
    struct Edge {
        /// Index into the inputs passed to `requestLines`.
        var input: Int
        /// True for a rising (logical 0 to 1) edge.
        var rising: Bool
        /// The kernel's timestamp (CLOCK_MONOTONIC), converted here, once.
        var time: Instant
    }

    /// Reads every pending edge without blocking. The C function is `booth_gpio_request_read_edges`.
    static func readEdges(_ request: OpaquePointer) throws(Failure) -> [Edge] {
        var edges: [Edge] = []
        var buffer = [booth_gpio_edge](repeating: booth_gpio_edge(), count: 64)
        while true {
            let count = booth_gpio_request_read_edges(request, &buffer, buffer.count)
            guard count >= 0 else { throw .current() }
            for raw in buffer.prefix(Int(count)) {
                edges.append(
                    Edge(
                        input: raw.input_index,
                        rising: raw.kind == Int32(BOOTH_GPIO_EDGE_RISING.rawValue),
                        time: Instant(kernelNanoseconds: raw.timestamp_ns)))
            }
            if Int(count) < buffer.count { return edges }
        }
    }

    /// Reads an input's logical value. The C function is `booth_gpio_request_get_input_value`.
    static func inputValue(_ request: OpaquePointer, index: Int) throws(Failure) -> Bool {
        let value = booth_gpio_request_get_input_value(request, index)
        guard value >= 0 else { throw .current() }
        return value != 0
    }

    /// Sets an output's logical value. The C function is `booth_gpio_request_set_output_value`.
    static func setOutputValue(_ request: OpaquePointer, index: Int, _ value: Bool) throws(Failure) {
        guard booth_gpio_request_set_output_value(request, index, value ? 1 : 0) == 0 else {
            throw .current()
        }
    }

    /// Decodes a NUL-terminated fixed-size C char array (imported as a tuple).
    private static func string<Tuple>(_ chars: Tuple) -> String {
        withUnsafeBytes(of: chars) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
