// BoothVersionTests: the version `booth --version` prints is CHANGELOG.md's newest.
import Foundation
import Testing

@testable import BoothCore

@Suite struct BoothVersionTests {
    /// CHANGELOG.md's first `## VERSION — DATE` heading is this version (scripts/package reads the same heading).
    @Test func theChangelogsNewestVersionIsThisOne() throws {
        let root = String(#filePath.split(separator: "/Tests/").first!)
        let text = try String(contentsOfFile: root + "/CHANGELOG.md", encoding: .utf8)
        let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") })
        let parts = heading.dropFirst(3).split(separator: " ")
        #expect(parts.count == 3 && parts[1] == "—", "a heading reads '## 0.6.0 — 2026-11-26': \(heading)")
        #expect(parts.first.map(String.init) == BoothVersion.current)
    }
}
