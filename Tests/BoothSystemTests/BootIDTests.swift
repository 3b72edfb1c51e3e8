// BootIDTests: this boot's id is read from the kernel, the same at every read.
import BoothCore
import BoothSystem
import PhotoModel
import Testing

@Suite struct BootIDTests {
    @Test func thisBootsIDIsTheKernelsAndStaysTheSame() throws {
        let id = try #require(BootID.current())
        let kernel = try #require(try FileReading.contents(of: BootID.path, limit: 64))
        // The test runs without HEYLOOK_BOOT_ID; then the id is the kernel's, a boot id in either form.
        #expect(id == String(decoding: kernel, as: UTF8.self))
        #expect(BootInstant.bootID(id) != nil)
        #expect(BootID.current() == id)
    }
}
