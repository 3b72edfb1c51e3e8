// LogTests: priority prefixes only when standard error is the journal's stream.
import BoothSystem
import Glibc
import Testing

@testable import BoothRuntime

@Suite struct LogTests {
    /// The "device:inode" of `fd`, as systemd writes JOURNAL_STREAM.
    private func identity(_ fd: Int32) -> String {
        var info = stat()
        #expect(fstat(fd, &info) == 0)
        return "\(info.st_dev):\(info.st_ino)"
    }

    @Test func theJournalsOwnStreamGetsPrefixes() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(Log.isJournal(stream: identity(fds[1]), fd: FileDescriptor(rawValue: fds[1])))
    }

    /// A terminal or a file under a service's inherited JOURNAL_STREAM (e.g. `booth doctor` run from a unit's
    /// shell, or a test's pipe) is another stream: no prefixes. Mutation: comparing only that the variable is set
    /// fails this.
    @Test func anotherStreamUnderTheVariableGetsNone() {
        var journal: [Int32] = [0, 0]
        var other: [Int32] = [0, 0]
        #expect(pipe(&journal) == 0 && pipe(&other) == 0)
        defer { for fd in journal + other { close(fd) } }
        #expect(!Log.isJournal(stream: identity(journal[1]), fd: FileDescriptor(rawValue: other[1])))
    }

    @Test func noVariableOrAMalformedOneGetsNone() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(!Log.isJournal(stream: nil, fd: FileDescriptor(rawValue: fds[1])))
        for bad in ["", "12", "a:b", "1:2:3", identity(fds[1]) + "x"] {
            #expect(!Log.isJournal(stream: bad, fd: FileDescriptor(rawValue: fds[1])), "JOURNAL_STREAM=\(bad)")
        }
    }

    @Test func linesCarryThePriorityOnlyForTheJournal() {
        #expect(Log.line("warning: low", priority: 4, journal: true) == "<4>warning: low")
        #expect(Log.line("warning: low", priority: 4, journal: false) == "warning: low")
    }
}
