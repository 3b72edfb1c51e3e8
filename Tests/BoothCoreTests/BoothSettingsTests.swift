// BoothSettingsTests: the wiring diagram in the manual shows the pins the settings default to.
import Foundation
import Testing

@testable import BoothCore

@Suite struct BoothSettingsTests {
    /// The Raspberry Pi's 40-pin header: BCM number → physical pin (an independent table from the one
    /// scripts/draw-wiring draws with).
    static let headerPin: [Int: Int] = [
        2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21, 25: 22,
        11: 23, 8: 24, 7: 26, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
    ]

    /// Every element of docs/images/wiring.svg that carries `data-key`, as its data attributes.
    static func diagramLines() throws -> [[String: String]] {
        let root = String(#filePath.split(separator: "/Tests/").first!)
        let svg = try String(contentsOfFile: root + "/docs/images/wiring.svg", encoding: .utf8)
        let tag = try NSRegularExpression(pattern: "<[a-z]+[^>]*\\bdata-key=\"[^\"]*\"[^>]*>")
        let attribute = try NSRegularExpression(pattern: "\\bdata-([a-z]+)=\"([^\"]*)\"")
        return tag.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
            let element = String(svg[Range(match.range, in: svg)!])
            var fields: [String: String] = [:]
            for a in attribute.matches(in: element, range: NSRange(element.startIndex..., in: element)) {
                fields[String(element[Range(a.range(at: 1), in: element)!])] =
                    String(element[Range(a.range(at: 2), in: element)!])
            }
            return fields
        }
    }

    /// Mutation: a default pin changed in BoothSettings without redrawing the diagram (scripts/draw-wiring) fails it.
    @Test func theWiringDiagramShowsTheDefaultPins() throws {
        let gpio = BoothSettings().gpio
        var expected: [String: Int] = [:]
        for (key, line) in [
            ("gpio.button", gpio.button), ("gpio.button_led", gpio.buttonLED), ("gpio.knob_a", gpio.knobA),
            ("gpio.knob_b", gpio.knobB), ("gpio.knob_switch", gpio.knobSwitch),
        ] {
            guard case .offset(let n) = line else { throw TestFailure("\(key)'s default is not a BCM number") }
            expected[key] = n
        }
        for (index, line) in gpio.leds.enumerated() {
            guard case .offset(let n) = line else { throw TestFailure("an LED's default is not a BCM number") }
            expected["gpio.leds.\(index)"] = n
        }
        var drawn: [String: Int] = [:]
        for fields in try Self.diagramLines() where fields["optional"] != "true" {
            let key = fields["key"]! + (fields["index"].map { ".\($0)" } ?? "")
            #expect(drawn[key] == nil, "the diagram draws \(key) twice")
            let bcm = try #require(fields["bcm"].flatMap { Int($0) }, "\(key) has no data-bcm")
            drawn[key] = bcm
            #expect(fields["pin"].flatMap { Int($0) } == Self.headerPin[bcm], "\(key): GPIO\(bcm)'s header pin")
        }
        #expect(drawn == expected)
    }

    /// The optional lines are drawn at the examples deploy/booth.toml gives, on their real header pins.
    @Test func theOptionalLinesAreDrawnAtTheShippedExamples() throws {
        let shipped = try ConfigDocsTests.shippedKeys()
        #expect(shipped["gpio.flash"] != nil)
        let root = String(#filePath.split(separator: "/Tests/").first!)
        let toml = try String(contentsOfFile: root + "/deploy/booth.toml", encoding: .utf8)
        var drawn: Set<String> = []
        for fields in try Self.diagramLines() where fields["optional"] == "true" {
            let key = try #require(fields["key"])
            let bcm = try #require(fields["bcm"].flatMap { Int($0) })
            let name = key.dropFirst("gpio.".count)
            #expect(toml.contains("# \(name) = \(bcm) "), "\(key) = \(bcm) is deploy/booth.toml's example")
            #expect(fields["pin"].flatMap { Int($0) } == Self.headerPin[bcm])
            drawn.insert(key)
        }
        #expect(drawn == ["gpio.flash", "gpio.haptic", "gpio.cancel"])
    }

    /// Custom sounds join the knob's cycle after it, by name, once each; a sound already in it keeps its place.
    @Test func customSoundsJoinTheCycleAfterItByNameOnce() {
        #expect(
            BoothSettings.soundCycle(["Pop", "Dog"], adding: ["zebra", "Dog", "apple", "apple"])
                == ["Pop", "Dog", "apple", "zebra"])
        #expect(BoothSettings.soundCycle(["Pop"], adding: []) == ["Pop"])
    }
}

/// A test's own failure with a message.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
