// CropRatioTests: the centered crop each ratio gives, even-aligned.
import Testing

@testable import PhotoEncoding

@Suite struct CropRatioTests {
    @Test func cropsAreEvenAlignedAndCentered() {
        let crop = CropRatio(width: 4, height: 3).centerCrop(frameWidth: 1920, frameHeight: 1080)
        #expect(crop == CropRectangle(x: 240, y: 0, width: 1440, height: 1080))
        let portrait = CropRatio(width: 3, height: 4).centerCrop(frameWidth: 641, frameHeight: 479)
        #expect(portrait.x % 2 == 0 && portrait.width % 2 == 0 && portrait.height == 479)
        #expect(portrait.width == 360)
        let tall = CropRatio(width: 16, height: 9).centerCrop(frameWidth: 641, frameHeight: 479)
        #expect(tall.y % 2 == 0 && tall.height == 360 && tall.width == 641)
    }

    @Test func matchingRatioKeepsTheWholeFrame() {
        #expect(
            CropRatio(width: 4, height: 3).centerCrop(frameWidth: 640, frameHeight: 480)
                == CropRectangle(x: 0, y: 0, width: 640, height: 480))
    }
}
