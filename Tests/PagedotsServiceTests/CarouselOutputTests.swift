import Foundation
import Testing
import TestSupport

/// The repository's root, from this file's place in it.
private let repository = sourceFolder(of: #filePath) + "/../.."

/// Carousels from the real binary, decoded by Pillow and checked against
/// their slides by `scripts/check-carousel.py` (docs/carousel.md: size,
/// timing, the first frame, the order from `current`, the indicator mid-dwell,
/// cut, fade, push, place, a carousel GIF's timing and loop count kept), on
/// the example slides made 8 times smaller (150 × 75) so that the debug binary draws
/// them quickly. `scripts/check-carousel` runs the same at full size.
@Suite("Carousels decoded and checked against their slides")
struct CarouselOutputTests {
    @Test("scripts/check-carousel.py --shrink 8 passes every check")
    func decodedCarouselsMatchTheirSlides() throws {
        let server = try ServerProcess(["--client-miss-rate", "0"])
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagedots-check-carousel-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try #require(
            ExternalCommand.run(["python3", repository + "/scripts/check-carousel.py", "http://127.0.0.1:\(server.port)", folder, "--shrink", "8"]),
            "cannot run python3"
        )
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(" passed, 0 failed"), "\(result.output)")
    }
}
