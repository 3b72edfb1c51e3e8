// GPIOChip: an open chip handle that closes itself, opened by a ChipSelector with typed errors.
import BoothSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open GPIO chip; closed on deinit. Single-threaded use.
final class GPIOChip {
    /// The shim's chip handle.
    let handle: OpaquePointer
    /// The chip's name, label, path and line count.
    let info: GPIOChipInfo

    /// How the chip reads in messages, e.g. `gpiochip0 [pinctrl-rp1]`.
    var displayName: String { "\(info.name) [\(info.label)]" }

    /// Opens the chip the selector names.
    init(_ selector: ChipSelector) throws(GPIOError) {
        let opened: OpaquePointer
        do throws(LibGPIOD.Failure) {
            switch selector {
            case .auto: opened = try Self.openAuto()
            case .label(let label): opened = try LibGPIOD.openChip(label: label)
            case .path(let path): opened = try LibGPIOD.openChip(path: path)
            case .name(let name): opened = try LibGPIOD.openChip(name: name)
            }
        } catch {
            throw Self.openError(selector, error.code)
        }
        handle = opened
        info = LibGPIOD.chipInfo(opened)
    }

    deinit {
        LibGPIOD.closeChip(handle)
    }

    /// Resolves a line selector to an offset on this chip.
    func offset(of line: GPIOError.Line) throws(GPIOError) -> Int {
        switch line.selector {
        case .offset(let offset):
            guard offset >= 0, offset < info.lineCount else {
                throw .lineNotFound(chip: displayName, line: line, lineCount: info.lineCount)
            }
            return offset
        case .name(let name):
            do throws(LibGPIOD.Failure) {
                return try LibGPIOD.findLine(handle, name: name)
            } catch {
                switch error.code {
                case ENOENT, EINVAL:
                    throw .lineNotFound(chip: displayName, line: line, lineCount: info.lineCount)
                default:
                    throw Self.deviceError(.findLine, device: displayName, line: line, error.code)
                }
            }
        }
    }

    /// Reads what the kernel reports about one line.
    func lineInfo(offset: Int) throws(GPIOError) -> GPIOLineInfo {
        do throws(LibGPIOD.Failure) {
            return try LibGPIOD.lineInfo(handle, offset: offset)
        } catch {
            throw Self.deviceError(
                .readLineInfo, device: displayName, line: nil, error.code)
        }
    }

    /// Maps an errno to a permission error or a generic one.
    static func deviceError(
        _ operation: GPIOError.Operation, device: String, line: GPIOError.Line?, _ code: Int32
    ) -> GPIOError {
        Errno(rawValue: code).meansNotAllowed
            ? .permissionDenied(operation: operation, device: device, line: line, errno: code)
            : .system(operation: operation, device: device, line: line, errno: code)
    }

    /// Tries each of `ChipSelector.autoLabels`; a permission failure wins over "not found".
    private static func openAuto() throws(LibGPIOD.Failure) -> OpaquePointer {
        var failure = LibGPIOD.Failure(code: ENOENT)
        for label in ChipSelector.autoLabels {
            do throws(LibGPIOD.Failure) {
                return try LibGPIOD.openChip(label: label)
            } catch {
                if !Errno(rawValue: failure.code).meansNotAllowed { failure = error }
            }
        }
        throw failure
    }

    /// Turns a failed open into chip-not-found (with the chips that exist), permission or other.
    private static func openError(_ selector: ChipSelector, _ code: Int32) -> GPIOError {
        let device =
            switch selector {
            case .auto: "any of \(ChipSelector.autoLabels.joined(separator: ", "))"
            case .label(let label): "chip labelled '\(label)'"
            case .path(let path): path
            case .name(let name): "/dev/\(name)"
            }
        // Missing, or a node that is not a GPIO chip (ENOTTY).
        let kind = Errno(rawValue: code)
        guard kind.meansDeviceMissing || kind == .inappropriateIOCTLForDevice else {
            return deviceError(.openChip, device: device, line: nil, code)
        }
        let available = (try? LibGPIOD.listChips()) ?? []
        return .chipNotFound(selector: selector, available: available, errno: code)
    }
}
