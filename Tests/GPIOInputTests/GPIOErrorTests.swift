// GPIOErrorTests: every message names the operation, the chip, the line, the errno and the fix.
import BoothSystem
import Testing

@testable import GPIOInput

#if canImport(Glibc)
    import Glibc
#endif

private let shutter = GPIOError.Line(role: "shutter", selector: .offset(17), offset: 17)

@Suite struct GPIOErrorTests {
    @Test("chip not found lists the chips that exist and the config key")
    func chipNotFound() {
        let error = GPIOError.chipNotFound(
            selector: .label("pinctrl-rp1"),
            available: [
                GPIOChipInfo(name: "gpiochip0", label: "pinctrl-bcm2711", path: "/dev/gpiochip0", lineCount: 58),
                GPIOChipInfo(name: "gpiochip1", label: "", path: "/dev/gpiochip1", lineCount: 0, openErrno: EACCES),
            ],
            errno: ENOENT)
        let text = error.description
        #expect(text.contains("open GPIO chip"))
        #expect(text.contains("label 'pinctrl-rp1'"))
        #expect(text.contains("ENOENT"))
        #expect(text.contains("gpiochip0 [pinctrl-bcm2711] (58 lines)"))
        #expect(text.contains("gpiochip1 (cannot open: EACCES)"))
        #expect(text.contains("gpio.chip"))
        #expect(text.contains("gpiodetect"))
    }

    @Test("chip not found with no chips at all says so")
    func noChips() {
        let text = GPIOError.chipNotFound(selector: .auto, available: [], errno: ENOENT).description
        #expect(text.contains("pinctrl-rp1, pinctrl-bcm2711, pinctrl-bcm2835"))
        #expect(text.contains("Chips on this machine: none"))
    }

    @Test("line busy names the consumer holding it and says to stop the other program")
    func lineBusy() {
        let text = GPIOError.lineBusy(chip: "gpiochip0 [pinctrl-rp1]", line: shutter, consumer: "pibooth")
            .description
        #expect(text.contains("request GPIO lines on gpiochip0 [pinctrl-rp1]"))
        #expect(text.contains("line 'shutter' (offset 17)"))
        #expect(text.contains("consumer 'pibooth'"))
        #expect(text.contains("EBUSY"))
        #expect(text.contains("stop the other program"))
        #expect(text.contains("gpioinfo gpiochip0"))
    }

    @Test("line busy without a consumer name points at kernel drivers too")
    func lineBusyUnnamed() {
        let text = GPIOError.lineBusy(chip: "gpiochip0 [pinctrl-rp1]", line: nil, consumer: "").description
        #expect(text.contains("a requested line is held by another consumer"))
        #expect(text.contains("dtoverlay"))
    }

    @Test(
        "permission denied says to add 'booth' to group 'gpio' and mentions the udev rule",
        arguments: [EACCES, EPERM])
    func permissionDenied(code: Int32) {
        let text = GPIOError.permissionDenied(
            operation: .requestLines, device: "gpiochip0 [pinctrl-rp1]", line: shutter, errno: code
        ).description
        #expect(text.contains("request GPIO lines on gpiochip0 [pinctrl-rp1] for line 'shutter' (offset 17)"))
        #expect(text.contains(ErrnoText.name(code)))
        #expect(text.contains("add user 'booth' to group 'gpio'"))
        #expect(text.contains("udev rule"))
        #expect(text.contains(#"KERNEL=="gpiochip*""#))
    }

    @Test("line name not found names the role, the name and where to look")
    func lineNameNotFound() {
        let line = GPIOError.Line(role: "encoderA", selector: .name("GPIO99"))
        let text = GPIOError.lineNotFound(chip: "gpiochip0 [pinctrl-rp1]", line: line, lineCount: 54).description
        #expect(text.contains("no line named 'GPIO99'"))
        #expect(text.contains("'encoderA'"))
        #expect(text.contains("ENOENT"))
        #expect(text.contains("gpioinfo gpiochip0"))
    }

    @Test("offset out of range gives the chip's line count")
    func offsetOutOfRange() {
        let line = GPIOError.Line(role: "shutter", selector: .offset(70))
        let text = GPIOError.lineNotFound(chip: "gpiochip0 [pinctrl-rp1]", line: line, lineCount: 54).description
        #expect(text.contains("offset 70 is out of range (the chip has 54 lines)"))
    }

    @Test("other errnos name the operation, device, line and errno text")
    func system() {
        let text = GPIOError.system(operation: .readEdges, device: "gpiochip0 [pinctrl-rp1]", line: shutter, errno: EIO)
            .description
        #expect(text.contains("read GPIO edge events on gpiochip0 [pinctrl-rp1] for line 'shutter' (offset 17)"))
        #expect(text.contains("Input/output error (EIO)"))
        #expect(text.contains("booth doctor"))
    }

    @Test("a named line with its resolved offset shows both")
    func lineDescription() {
        #expect(
            GPIOError.Line(role: "lamp", selector: .name("GPIO18"), offset: 18).description
                == "line 'lamp' (name 'GPIO18', offset 18)")
        #expect(ErrnoText.name(12345) == "errno 12345")
    }
}
