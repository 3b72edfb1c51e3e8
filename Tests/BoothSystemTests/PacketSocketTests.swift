// PacketSocketTests: a listener at a path answering one question, and the errors of a missing, silent or odd one.
import BoothTestSupport
import Foundation
import Glibc
import Testing

@testable import BoothSystem

@Suite(.timeLimit(.minutes(3)), .offCooperativePool) struct PacketSocketTests {
    /// Accepts one connection on `listener` and answers its message with `reply(message)` (nil: silence for a second),
    /// on a thread of its own.
    func answerOnce(_ listener: PacketSocket, _ reply: @escaping @Sendable ([UInt8]) -> [UInt8]?) -> Thread {
        let thread = Thread {
            var ready = pollfd(fd: listener.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) == 1, let connection = try? listener.accept() else { return }
            var readable = pollfd(fd: connection.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, 10_000) == 1, let message = try? connection.receive(limit: 64) else { return }
            // No answer: the connection stays open a while (closing it would be the empty answer).
            if let answer = reply(message.bytes) { connection.send(answer) } else { Thread.sleep(forTimeInterval: 1) }
        }
        thread.start()
        return thread
    }

    @Test func aQuestionGetsItsAnswerAndTheSocketIsTheGroupsToUse() throws {
        let path = temporaryDirectory() + "/print.sock"
        let listener = try PacketSocket.listen(at: path, mode: 0o660)
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(try listener.accept() == nil, "a connection nobody made")
        _ = answerOnce(listener) { Array("answer to ".utf8) + $0 }
        let answer = try PacketSocket.ask(Array("question".utf8), at: path, timeout: .seconds(10))
        #expect(String(decoding: answer, as: UTF8.self) == "answer to question")
        // A socket left by an earlier run is replaced.
        _ = try PacketSocket.listen(at: path, mode: 0o600)
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aLongMessageIsToldCut() throws {
        let path = temporaryDirectory() + "/cut.sock"
        let listener = try PacketSocket.listen(at: path, mode: 0o600)
        nonisolated(unsafe) var seen: (bytes: [UInt8], truncated: Bool)?
        let thread = Thread {
            var ready = pollfd(fd: listener.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) == 1, let connection = try? listener.accept() else { return }
            var readable = pollfd(fd: connection.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, 10_000) == 1 else { return }
            seen = try? connection.receive(limit: 4)
            connection.send([1])
        }
        thread.start()
        #expect(try PacketSocket.ask([9, 8, 7, 6, 5, 4], at: path, timeout: .seconds(10)) == [1])
        while thread.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        #expect(seen?.bytes == [9, 8, 7, 6] && seen?.truncated == true)
    }

    @Test func aFileThatIsNoSocketIsNeverReplaced() throws {
        let path = temporaryDirectory() + "/print.sock"
        try Data("the host's notes".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SystemError.self) { try PacketSocket.listen(at: path, mode: 0o660) }
        do {
            _ = try PacketSocket.listen(at: path, mode: 0o660)
        } catch {
            #expect(error.errno == EEXIST && error.description.contains("not a socket"), "\(error)")
        }
        #expect(readFile(path) == Array("the host's notes".utf8))
    }

    @Test func nothingListeningSilenceAndAPathTooLongAreErrors() throws {
        let folder = temporaryDirectory()
        do {
            _ = try PacketSocket.ask([1], at: folder + "/none.sock", timeout: .seconds(1))
            Issue.record("an answer from no socket")
        } catch {
            #expect(error.errno == ENOENT)
        }
        let listener = try PacketSocket.listen(at: folder + "/silent.sock", mode: 0o600)
        let silent = answerOnce(listener) { _ in nil }
        do {
            _ = try PacketSocket.ask([1], at: folder + "/silent.sock", timeout: .milliseconds(200))
            Issue.record("an answer from a silent socket")
        } catch {
            #expect(error.errno == ETIMEDOUT)
        }
        while silent.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        do {
            _ = try PacketSocket.listen(at: folder + "/" + String(repeating: "x", count: 120), mode: 0o600)
            Issue.record("a socket at a path longer than sun_path")
        } catch {
            #expect(error.errno == ENAMETOOLONG)
        }
    }
}
