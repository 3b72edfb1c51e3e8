// DatagramExchangeTests: one UDP question and its answer on loopback, and the nil of a silent or absent service.
import Foundation
import Glibc
import Testing

@testable import BoothSystem

@Suite struct DatagramExchangeTests {
    /// A UDP socket on 127.0.0.1 with a port of the kernel's choosing.
    final class Service: @unchecked Sendable {
        let fd: Int32
        let port: UInt16

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(fd >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            if !bound { close(fd) }
            try #require(bound)
            (self.fd, self.port) = (fd, UInt16(bigEndian: address.sin_port))
        }

        /// Answers the first datagram with `reply(question)`, on a thread of its own.
        func answerOnce(_ reply: @escaping @Sendable ([UInt8]) -> [UInt8]) {
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 512)
                var from = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let count = withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                        buffer.withUnsafeMutableBytes { recvfrom(fd, $0.baseAddress, $0.count, 0, pointer, &length) }
                    }
                }
                guard count >= 0 else { return }
                let answer = reply(Array(buffer[..<count]))
                _ = withUnsafePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                        answer.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, pointer, length) }
                    }
                }
            }
        }

        deinit { close(fd) }
    }

    @Test func theAnswerToTheQuestionComesBack() throws {
        let service = try Service()
        service.answerOnce { question in question.reversed() + [0xFF] }
        let answer = try DatagramExchange.ask(
            [1, 2, 3], ipv4: "127.0.0.1", port: service.port, timeout: .seconds(10))
        #expect(answer == [3, 2, 1, 0xFF])
    }

    @Test func aServiceThatSaysNothingIsNoAnswerAtTheDeadline() throws {
        let service = try Service()
        let answer = try DatagramExchange.ask([1], ipv4: "127.0.0.1", port: service.port, timeout: .milliseconds(200))
        #expect(answer == nil)
    }

    @Test func aPortNobodyListensOnIsNoAnswer() throws {
        let port = try Service().port  // bound, then closed: the kernel answers "port unreachable"
        let answer = try DatagramExchange.ask([1], ipv4: "127.0.0.1", port: port, timeout: .seconds(10))
        #expect(answer == nil)
    }

    @Test func anAddressThatIsNotIPv4IsRefusedByName() {
        #expect(throws: SystemError.self) {
            try DatagramExchange.ask([1], ipv4: "booth.local", port: 53, timeout: .milliseconds(10))
        }
    }
}
