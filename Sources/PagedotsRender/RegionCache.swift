import PagedotsCore
import PagedotsPixels

/// The pixels of regions that `RasterRenderer` repainted, by what decides
/// them (`RegionKey`): each move between two neighbouring pages of an
/// animation repaints the same regions, only elsewhere, and a region found
/// here is copied instead of drawn (docs/gif.md, "Drawing the frames").
/// Their memory is taken from a `CacheBudget` (`.regions`); past its
/// allowance, regions are drawn but not kept. Emptied when the budget is reset.
final class RegionCache {
    /// A region's pixels as drawn: Cairo's premultiplied native-endian
    /// ARGB32 words, as items are drawn over them, and straight RGBA bytes,
    /// as images hold them (made when a frame first copies the region: one
    /// drawn under another item may never be).
    struct Region {
        var straight: [UInt8]?
        var premultiplied: [UInt32]

        var bytes: Int { (straight?.count ?? 0) + 4 * premultiplied.count }
    }

    private var regions: [RegionKey: Region] = [:]
    private let budget: CacheBudget

    init(budget: CacheBudget) {
        self.budget = budget
        budget.onReset { [weak self] in self?.regions = [:] }
    }

    /// Whether regions are kept at all (an allowance of 0 keeps none, and
    /// their keys need not be made).
    var isKeeping: Bool { budget.allowance(of: .regions) > 0 }

    subscript(key: RegionKey) -> Region? { regions[key] }

    /// Keeps `region` as `key`'s (in place of the one kept before, if any)
    /// while the budget allows.
    func remember(_ region: Region, as key: RegionKey) {
        let added = region.bytes - (regions[key]?.bytes ?? 0)
        guard budget.take(added, for: .regions) else { return }
        regions[key] = region
    }

    /// `region`'s straight pixels (a region `width` wide in `inks`), made
    /// the first time they are asked for and then remembered with it.
    func straightPixels(of region: Region, as key: RegionKey, width: Int, inks: Inks) -> [UInt8] {
        if let straight = region.straight { return straight }
        let straight = CairoPixels.straightPixels(of: region.premultiplied, width: width, inks: inks)
        remember(Region(straight: straight, premultiplied: region.premultiplied), as: key)
        return straight
    }
}
