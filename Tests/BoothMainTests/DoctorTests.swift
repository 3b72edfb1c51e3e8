// DoctorTests: `booth doctor` reads the photo store and never writes it (it is often run as root).
import BoothCore
import BoothSystem
import BoothTestSupport
import CameraCapture
import Foundation
import Glibc
import KeyInput
import PhotoEncoding
import PhotoModel
import PhotoStore
import Printing
import Testing

@testable import BoothMain
@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct DoctorTests {
    /// Each remote the config names is shown connected, with its ids, bus and node, or not connected with what wakes
    /// it; with none named the report says how to find one.
    @Test func remotesAreShownConnectedOrNot() {
        var remote = BoothSettings.Remote()
        #expect(
            DoctorCommand.remoteReport(remote, devices: []).lines == [
                "none (remote.devices; `booth remote list` shows the devices)"
            ])
        remote.devices = [.name("AB Shutter3"), .ids(vendor: 0x1234, product: 0x5678)]
        let devices = [
            InputDeviceList.Device(name: "Power Button", bus: 0x19, eventNode: "event0"),
            InputDeviceList.Device(name: "AB Shutter3", bus: 5, vendor: 0x248a, product: 0x8266, eventNode: "event3"),
        ]
        let report = DoctorCommand.remoteReport(remote, devices: devices)
        #expect(
            report.lines == [
                "✓ \"AB Shutter3\" (248a:8266, Bluetooth) at /dev/input/event3",
                "1234:5678: not connected (asleep, off or not paired: a key press wakes a Bluetooth remote)",
            ])
        #expect(report.problems.isEmpty)
    }

    /// A paired Bluetooth remote adds its address and battery (BlueZ's Battery1) to its line, connected or asleep; a
    /// battery at 20 % or below is a problem, a remote another config names is not shown.
    @Test func aBluetoothRemotesBatteryIsShownAndALowOneIsAProblem() {
        var remote = BoothSettings.Remote()
        remote.devices = [.name("AB Shutter3"), .ids(vendor: 0x1234, product: 0x5678)]
        func paired(
            _ name: String, _ address: String, battery: Int?, ids: (UInt16, UInt16)? = nil
        )
            -> BluetoothRemotes.Device
        {
            BluetoothRemotes.Device(
                path: "/org/bluez/hci0/dev_" + address, address: address, name: name, paired: true, trusted: true,
                connected: true, inRange: false, battery: battery, vendor: ids?.0, product: ids?.1, isInput: true)
        }
        let bluetooth = [
            paired("AB Shutter3", "2A:07:98:10:32:05", battery: 80),
            paired("Pedal", "11:22:33:44:55:66", battery: 15, ids: (0x1234, 0x5678)),
            paired("Other", "11:22:33:44:55:77", battery: 5),
        ]
        let devices = [
            InputDeviceList.Device(name: "AB Shutter3", bus: 5, vendor: 0x248a, product: 0x8266, eventNode: "event3")
        ]
        let report = DoctorCommand.remoteReport(remote, devices: devices, bluetooth: bluetooth)
        #expect(
            report.lines == [
                "✓ \"AB Shutter3\" (248a:8266, Bluetooth) at /dev/input/event3; Bluetooth 2A:07:98:10:32:05, battery 80 %",
                "1234:5678: not connected (paired; Bluetooth 11:22:33:44:55:66, battery 15 %; asleep or off: a key press "
                    + "wakes it)",
            ])
        #expect(report.problems == ["the remote \"Pedal\" (11:22:33:44:55:66)'s battery is at 15 %: change it"])
    }

    @Test func anOpenCameraOverUSBSaysItsBatteryAndFreeSpace() {
        #expect(
            DoctorCommand.cameraState(battery: "50%", freeBytes: 542_792 * 1024)
                == "battery 50%, 530 MiB free on its card")
        #expect(DoctorCommand.cameraState(battery: nil, freeBytes: 2 << 20) == "2 MiB free on its card")
        #expect(DoctorCommand.cameraState(battery: nil, freeBytes: nil) == nil)
    }

    @Test(
        .offCooperativePool,
        .needsCUPSFixture)
    func thePrinterSaysItsQueueAndAStoppedQueueOrAMissingCUPSIsAProblemWithTheFix() throws {
        let off = DoctorCommand.printerReport(mode: .off, client: CUPSClient(server: "/nonexistent.sock"), copies: 1)
        #expect(off.lines == ["printing off (print.mode)"] && off.problems.isEmpty)
        try CUPSFixture.exclusively { cups in
            let client = CUPSClient(server: cups.socket)
            let idle = DoctorCommand.printerReport(mode: .each, client: client, copies: 2)
            #expect(idle.lines == ["queue booth (CUPS's default queue): idle, 2 copies of each photo"])
            #expect(idle.problems.isEmpty)
            try cups.admin("cupsdisable", [CUPSFixture.queue])
            let stopped = DoctorCommand.printerReport(
                mode: .each, client: CUPSClient(server: cups.socket, queue: CUPSFixture.queue), copies: 1)
            #expect(stopped.lines.first == "queue booth: stopped, 1 copy of each photo")
            #expect(stopped.problems.count == 1)
            #expect(stopped.problems.first?.contains("queue booth is stopped") == true, "\(stopped.problems)")
            #expect(stopped.problems.first?.contains("`sudo cupsenable booth`") == true)
            #expect(stopped.problems.first?.contains("printer-error-policy=retry-job") == true)
        }
        let gone = DoctorCommand.printerReport(
            mode: .each, client: CUPSClient(server: temporaryDirectory() + "/cups.sock"), copies: 1)
        #expect(gone.lines.isEmpty)
        #expect(gone.problems.first?.hasPrefix("print.mode is \"each\" but cannot reach CUPS") == true, "\(gone)")
    }

    /// The photos waiting for CUPS (kept in print-waiting.txt) are counted in the Printer section, whether CUPS
    /// answers or not (then its problem is the one to fix). Mutation: the count left out of the report fails it.
    @Test func theLogoIsShownWithItsSizeAndABadOneIsAProblem() throws {
        let folder = temporaryDirectory()
        let path = folder + "/logo.png"
        #expect(DoctorCommand.logoReport(mode: .each, path: "").lines.isEmpty)
        #expect(DoctorCommand.logoReport(mode: .off, path: path) == ([], []), "printing off: no logo printed")
        let missing = DoctorCommand.logoReport(mode: .each, path: path)
        #expect(missing.lines.isEmpty && missing.problems.count == 1)
        #expect(missing.problems.first?.hasPrefix("print.logo: \(path) does not exist") == true, "\(missing)")
        try DurableFile().write(PNGFixtures.rgba(width: 64, height: 32) { _, _ in [0, 0, 0, 255] }, path: path)
        #expect(DoctorCommand.logoReport(mode: .onRequest, path: path) == (["logo \(path): 64 x 32 pixels"], []))
    }

    @Test func thePhotosKeptWaitingForCUPSAreCounted() {
        let unreachable = CUPSClient(server: temporaryDirectory() + "/cups.sock")
        let two = DoctorCommand.printerReport(mode: .each, client: unreachable, copies: 1, waiting: 2)
        #expect(
            two.lines == [
                "2 photos waiting for CUPS (print-waiting.txt): sent once CUPS answers while the booth runs"
            ])
        #expect(two.problems.first?.hasPrefix("print.mode is \"each\" but cannot reach CUPS") == true, "\(two)")
        let one = DoctorCommand.printerReport(mode: .onRequest, client: unreachable, copies: 1, waiting: 1)
        #expect(one.lines.first?.hasPrefix("1 photo waiting") == true, "\(one)")
        #expect(DoctorCommand.printerReport(mode: .each, client: unreachable, copies: 1).lines.isEmpty)
    }

    /// The printer's supplies, as it reports them to CUPS while it prints (ippeveprinter's ATTR: lines, passed on by
    /// CUPS's ipp backend): each level in the Printer section, one that is empty a problem with the fix.
    @Test(
        .offCooperativePool,
        .needsCUPSFixture)
    func thePrintersSuppliesAreShownAndAnEmptyOneIsAProblem() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let client = CUPSClient(server: cups.socket)
            // Before the printer has told CUPS anything: no supplies line.
            #expect(try client.supplies().isEmpty)
            #expect(
                !DoctorCommand.printerReport(mode: .each, client: client, copies: 1).lines.contains {
                    $0.hasPrefix("supplies")
                })
            cups.supplies = "marker-names=Ribbon,Cleaner marker-levels=0,-3 marker-types=ink-ribbon,other"
            let photo = folder + "/HeyLook_2026-12-05_10-00-00_000001.jpg"
            try Data(JPEGEncoder.encode(TestPattern.render(width: 96, height: 72, text: "ink"))).write(
                to: URL(fileURLWithPath: photo))
            _ = try client.print(path: photo, title: "ink", copies: 1)
            #expect(cups.documents(count: 1).count == 1)
            // CUPS hears the supplies from its backend as the job ends.
            let end = Date().addingTimeInterval(30)
            while (try? client.supplies().isEmpty) != false && Date() < end { Thread.sleep(forTimeInterval: 0.2) }
            #expect(
                try client.supplies() == [
                    .init(name: "Ribbon", level: 0, type: "ink-ribbon"),
                    .init(name: "Cleaner", level: -3, type: "other"),
                ])
            let report = DoctorCommand.printerReport(mode: .each, client: client, copies: 1)
            #expect(report.lines.contains("supplies: Ribbon 0 %, Cleaner (some left)"), "\(report.lines)")
            #expect(
                report.problems.contains(
                    "the printer of queue booth has no Ribbon left: replace it before the next print"),
                "\(report.problems)")
        }
    }

    @Test func aBusyCameraNamesWhoHoldsItAndTheFix() {
        let camera = "Canon EOS 2000D (usb:001,005)"
        let gvfs = CameraHolder(pid: 812, command: "gvfsd-gphoto2", device: "/dev/bus/usb/001/005")
        let booth = CameraHolder(pid: 400, command: "booth", device: "/dev/bus/usb/001/005")
        let other = CameraHolder(pid: 900, command: "darktable", device: "/dev/bus/usb/001/005")
        let held = DoctorCommand.busyCamera(camera, holders: [gvfs, other])
        #expect(held.problem)
        #expect(
            held.text == "camera Canon EOS 2000D (usb:001,005) is in use by gvfsd-gphoto2 (pid 812), the desktop's "
                + "camera monitor: `systemctl --user stop gvfs-gphoto2-volume-monitor` (on a booth, `sudo apt remove "
                + "gvfs-backends`); darktable (pid 900): close it; the booth cannot take photos with it")
        // The booth's own service holding it is the booth at work, not a problem; a holder this user cannot see
        // (another user's process) is said, and how to name it.
        let mine = DoctorCommand.busyCamera(camera, holders: [booth])
        #expect(!mine.problem && mine.text.contains("in use by the booth (pid 400)"))
        let unseen = DoctorCommand.busyCamera(camera, holders: [])
        #expect(!unseen.problem && unseen.text.contains("`sudo booth doctor` names it"))
        // The booth beside another program: the other is the problem.
        let both = DoctorCommand.busyCamera(camera, holders: [booth, other])
        #expect(both.problem && both.text.contains("darktable (pid 900)") && !both.text.contains("pid 400"))
    }

    @Test func anEmptyPhotosFolderGetsNoStoreFiles() throws {
        let folder = temporaryDirectory()
        let report = DoctorCommand.storageReport(directory: folder, reserve: 0)
        #expect(report.problems.isEmpty && report.lines.first?.contains("0 photos") == true)
        #expect(try PhotoStore.fileNames(in: folder).isEmpty)
    }

    @Test func aMissingPhotosFolderIsNotCreated() {
        let folder = temporaryDirectory() + "/photos"
        let report = DoctorCommand.storageReport(directory: folder, reserve: 0)
        #expect(report.problems.count == 1 && report.problems[0].contains("the booth creates it"))
        var info = stat()
        #expect(stat(folder, &info) != 0 && errno == ENOENT)
    }

    @Test func aStoreIsCountedAndLeftAsItWas() throws {
        let folder = temporaryDirectory()
        let store = try PhotoStore(directory: folder, reserve: 0)
        let photo: [UInt8] = [0xFF, 0xD8] + [UInt8](repeating: 7, count: 1000)
        let first = try store.save(photo, takenAt: .init(year: 2026, month: 11, day: 23, hour: 9, minute: 0, second: 0))
        _ = try store.save(photo, takenAt: .init(year: 2026, month: 11, day: 23, hour: 9, minute: 1, second: 0))
        try store.discard(first)
        _ = unlink("\(folder)/\(PhotoStore.indexName)")
        let before = try PhotoStore.fileNames(in: folder).sorted()
        let report = DoctorCommand.storageReport(directory: folder, reserve: 0)
        #expect(report.lines.first?.contains("1 photos, 1 discarded") == true)
        #expect(try PhotoStore.fileNames(in: folder).sorted() == before)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file away"))
    func storeFilesOfAnotherOwnerAreProblemsWithTheFix() throws {
        let folder = temporaryDirectory()
        _ = try PhotoStore(directory: folder, reserve: 0)
        #expect(chown(folder, 4242, 4242) == 0)
        let report = DoctorCommand.storageReport(directory: folder, reserve: 0)
        #expect(report.problems.contains { $0.contains("\(PhotoStore.boothIDName) belongs to") })
        #expect(report.problems.allSatisfy { $0.contains("sudo chown -R uid 4242: \(folder)") })
    }

    /// The clock section: synchronised or trusted is fine, not synchronised a note naming both fixes,
    /// an unreadable status a problem (photos would stay undated without saying why).
    @Test func theClockSectionSaysWhetherPhotosAreDated() {
        #expect(
            DoctorCommand.clockReport(status: .synchronised, trusted: false) == (
                ["✓ synchronised: photos are dated"], []
            ))
        let offline = DoctorCommand.clockReport(status: .unsynchronised, trusted: false)
        #expect(offline.problems.isEmpty)
        #expect(
            offline.lines.count == 1 && offline.lines[0].contains("undated") && offline.lines[0].contains("trust_clock")
        )
        #expect(DoctorCommand.clockReport(status: .unsynchronised, trusted: true).lines[0].hasPrefix("✓ trusted"))
        let refused = DoctorCommand.clockReport(
            status: .unknown("adjtimex: Operation not permitted (EPERM)"), trusted: false)
        #expect(refused.problems.count == 1 && refused.problems[0].contains("EPERM"))
        // Set from a phone by the gallery: dated, and the journal's and doctor's source is the phone.
        let phone = ClockMark(setTo: 1_795_780_800, was: 1_795_608_000, phone: "10.42.0.57")
        let set = DoctorCommand.clockReport(status: .unsynchronised, trusted: false, phone: phone)
        #expect(set.problems.isEmpty)
        #expect(
            set.lines == [
                "✓ set from a phone (10.42.0.57) by the gallery this boot, 172800 s forward: photos are dated"
            ])
        #expect(
            DoctorCommand.clockReport(status: .synchronised, trusted: false, phone: phone).lines[0].hasPrefix(
                "✓ synchronised"))
    }

    /// The booth dates photos while the gallery's clock mark is there, and not before or when it is damaged.
    @Test func aPhoneMarkMakesTheClockTrusted() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/clock"
        let clock = WallClock(trust: .kernel, markPath: path, kernelStatus: { .unsynchronised })
        #expect(clock.photoTime() == nil && clock.state() == "unsynchronised")
        try DurableFile().write(Array("set_to 2\nwas 1\n".utf8), path: path)
        #expect(clock.photoTime() == nil)
        try DurableFile().write(
            Array(ClockMark(setTo: 2, was: 1, phone: "::1").text.utf8), path: path, replacing: true)
        #expect(clock.photoTime() != nil && clock.state() == "set from a phone")
        #expect(WallClock(trust: .never, markPath: path).photoTime() == nil)
        let synchronised = WallClock(trust: .kernel, markPath: path, kernelStatus: { .synchronised })
        #expect(synchronised.photoTime() != nil && synchronised.state() == "synchronised")
        let unknown = WallClock(
            trust: .kernel, markPath: "\(directory)/none", kernelStatus: { .unknown("adjtimex: EPERM") })
        #expect(unknown.photoTime() == nil && unknown.state() == "unknown: adjtimex: EPERM")
    }

    @Test func doctorSaysWhatIsWrongAndHowToFixIt() throws {
        let report = DoctorCommand.healthReport(sysRoot: try PiSysfs.make(), hotLimit: 80_000)
        #expect(report.lines.first?.hasPrefix("SoC 85.0 °C") == true)
        #expect(report.lines.contains { $0.contains("0x50005: under-voltage now, throttled now") })
        #expect(report.problems.count == 2)
        #expect(report.problems.contains { $0.hasPrefix("too hot") })
        #expect(report.problems.contains { $0.hasPrefix("under-voltage now: use the official") })
        let calm = DoctorCommand.healthReport(sysRoot: temporaryDirectory(), hotLimit: 80_000)
        #expect(calm.problems.isEmpty)
        #expect(
            calm.lines == [
                "no thermal zone: the temperature is not watched",
                "no firmware power flags (not a Raspberry Pi): under-voltage is not watched",
            ])
    }
}
