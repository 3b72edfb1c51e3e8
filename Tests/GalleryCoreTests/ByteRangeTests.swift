// ByteRangeTests: Range headers against a file's size.
import Testing

@testable import GalleryCore

@Suite struct ByteRangeTests {
    @Test(
        arguments: [
            (nil, ByteRange.whole), ("bytes=0-99", .part(first: 0, last: 99)),
            ("bytes=500-", .part(first: 500, last: 999)),
            ("bytes=-100", .part(first: 900, last: 999)), ("bytes=-5000", .part(first: 0, last: 999)),
            ("bytes=900-5000", .part(first: 900, last: 999)), ("bytes=1000-", .unsatisfiable),
            ("bytes=-0", .unsatisfiable),
            ("bytes=5-2", .whole), ("bytes=0-1,5-6", .whole), ("items=0-1", .whole), ("bytes=x-1", .whole),
            ("bytes=-1-2", .whole), ("bytes= 10 - 19 ", .part(first: 10, last: 19)),
        ] as [(String?, ByteRange)])
    func aRangeOfAThousandBytes(header: String?, expected: ByteRange) {
        #expect(ByteRange(header: header, size: 1000) == expected)
    }

    @Test func anEmptyFileHasNoRange() {
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-1", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: nil, size: 0) == .whole)
    }
}
