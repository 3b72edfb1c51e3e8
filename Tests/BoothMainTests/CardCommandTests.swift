// CardCommandTests: what `booth card` says when it cannot keep the booth's copy for the sticks, and the card printed.
import BoothSystem
import BoothTestSupport
import Foundation
import Glibc
import PhotoEncoding
import Testing

@testable import BoothMain

@Suite struct CardCommandTests {
    @Test func offAnInstalledBoothTheCopyForTheSticksIsSaidPlainlyNotAsAnError() {
        let missing = SystemError("open", "/var/lib/heylook/.join-card.pdf.tmp", errno: ENOENT)
        #expect(
            CardCommand.notKept(missing, stateFolder: "/var/lib/heylook")
                == "the copy for the sticks is kept only on an installed booth (there is no /var/lib/heylook here); "
                + "the card above is complete")
        let refused = SystemError("open", "/var/lib/heylook/.join-card.pdf.tmp", errno: EACCES)
        let text = CardCommand.notKept(refused, stateFolder: "/var/lib/heylook")
        #expect(
            text.hasPrefix("not kept for the sticks (")
                && text.hasSuffix("run it as root on the booth (sudo booth card)"))
    }

    /// `booth card --print ARGUMENTS` with its files and the booth's copy in `folder`, against the CUPS at `server`.
    private func printCard(in folder: String, server: String) throws -> (status: Int32, output: String, errors: String)
    {
        try "[booth]\nstate_file = \"\(folder)/state.toml\"\n".write(
            toFile: folder + "/booth.toml", atomically: true, encoding: .utf8)
        return try runBooth(
            [
                "card", "--print", "--code", "K7PQ2M", "--url", "http://booth.local/", "--wifi-name", "Party",
                "--wifi-password", "balloons42", "--output", folder, "--config", folder + "/booth.toml",
            ], environment: ["CUPS_SERVER": server])
    }

    /// The printer receives the card as written (join-card.jpg, A6 at 300 dpi), and its QR codes read back from
    /// what the printer received.
    @Test(
        .timeLimit(.minutes(3)), .offCooperativePool,
        .needsCUPSFixture)
    func thePrintedCardIsThePageWrittenAndItsCodesReadBackFromThePrinter() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let run = try printCard(in: folder, server: cups.socket)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("printing: job "), "\(run.output)")
            let documents = cups.documents(count: 1)
            try #require(documents.count == 1, "the printer received \(documents)")
            let received = try #require(readFile(documents[0]))
            #expect(received == readFile(folder + "/join-card.jpg"))
            let decoded = try JPEGInspector.decode(received)
            #expect(decoded.width == 1240 && decoded.height == 1748)
            let zbar = Process()
            zbar.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
            zbar.arguments = ["--quiet", "--raw", documents[0]]
            let read = Pipe()
            zbar.standardOutput = read
            try zbar.run()
            let codes = String(decoding: read.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            zbar.waitUntilExit()
            #expect(
                Set(codes.split(separator: "\n").map(String.init))
                    == ["WIFI:T:WPA;S:Party;P:balloons42;;", "http://booth.local/?code=K7PQ2M"], "\(codes)")
        }
    }

    /// A CUPS that is not there: the command fails naming the fix, and every file of the card is still written.
    @Test func aCardCUPSCannotTakeIsStillWrittenAndTheFixIsNamed() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try printCard(in: folder, server: folder + "/no-cups.sock")
        #expect(run.status == 1)
        #expect(run.errors.contains("card: not printed: cannot reach CUPS"), "\(run.errors)")
        #expect(run.errors.contains("systemctl status cups"), "\(run.errors)")
        for name in ["join-card.png", "join-card.pdf", "join-card.jpg"] {
            #expect(readFile(folder + "/" + name)?.isEmpty == false, "\(name) missing")
        }
    }
}
