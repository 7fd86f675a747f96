/// The memory that the caches of repeated work may hold while one
/// animation is made, in one place.
///
/// An animation's frames repeat themselves: each move between two
/// neighbouring pages draws the same pixels, only elsewhere. Each step of
/// the pipeline keeps what it made, so that a repeat costs a lookup and a
/// copy: the renderer its regions, the GIF differ its steps and the GIF
/// encoder its patches, the APNG encoder the changed images of its first
/// pass and its zlib streams. Each such cache takes the bytes it keeps from
/// the budget before keeping them (and keeps nothing the budget refuses),
/// and gives back what it drops. `reset()`, once an animation is made,
/// empties every cache that lives longer than one animation and gives
/// every allowance back: the one place where repeated work is forgotten.
///
/// Each cache has an allowance of its own: what one cache keeps then never
/// changes what another may keep, so a file never depends on the order of
/// the caches' work. Not `Sendable`: one per thread, shared by that
/// thread's renderer and encoders.
public final class CacheBudget {
    /// A cache of repeated work.
    public enum Cache: Int, CaseIterable, Sendable {
        /// The renderer's regions: Cairo's premultiplied pixels and straight RGBA.
        case regions
        /// The GIF differ's recorded steps, which it replays by copies.
        case steps
        /// The GIF encoder's patches, to find frames that repeat an earlier one.
        case patches
        /// The APNG encoder's changed images from its first pass, so that
        /// the second need not ask for the frames again.
        case images
        /// The APNG encoder's zlib streams, by the rows they compress.
        case streams
    }

    /// Each cache's allowance in bytes where nothing else is asked: 1 MiB of
    /// regions (at least twice what the default animations keep), 256 KiB
    /// each of steps and patches (the default pill's patches are 46 K pixels
    /// of 4 bytes), 1 MiB each of changed images and of streams. So a GIF
    /// holds at most 1.5 MiB of repeated work, an APNG 3 MiB.
    public static let defaultAllowances: [Cache: Int] = [
        .regions: 1 << 20, .steps: 1 << 18, .patches: 1 << 18, .images: 1 << 20, .streams: 1 << 20,
    ]

    private var allowances: [Int]
    private var held: [Int]
    /// What `reset()` empties, each a cache's owner that outlives an animation.
    private var forgetters: [() -> Void] = []

    /// A budget with `allowances` (bytes per cache; a cache not named gets
    /// its default allowance, and 0 keeps nothing).
    public init(allowances: [Cache: Int] = [:]) {
        self.allowances = Cache.allCases.map { allowances[$0] ?? Self.defaultAllowances[$0] ?? 0 }
        held = [Int](repeating: 0, count: Cache.allCases.count)
    }

    /// The most bytes `cache` may hold.
    public func allowance(of cache: Cache) -> Int {
        allowances[cache.rawValue]
    }

    /// The bytes `cache` holds now.
    public func held(by cache: Cache) -> Int {
        held[cache.rawValue]
    }

    /// The bytes every cache holds now.
    public var totalHeld: Int {
        held.reduce(0, +)
    }

    /// Whether `bytes` more fit `cache`'s allowance (nothing is taken).
    public func fits(_ bytes: Int, for cache: Cache) -> Bool {
        held[cache.rawValue] + bytes <= allowances[cache.rawValue]
    }

    /// Takes `bytes` for `cache` and returns true when they fit its
    /// allowance; else takes nothing and returns false (the cache then
    /// does not keep them). A negative count gives bytes back.
    public func take(_ bytes: Int, for cache: Cache) -> Bool {
        guard fits(bytes, for: cache) else { return false }
        held[cache.rawValue] += bytes
        return true
    }

    /// Gives back `bytes` that `cache` took and no longer keeps.
    public func giveBack(_ bytes: Int, for cache: Cache) {
        held[cache.rawValue] -= bytes
        assert(held[cache.rawValue] >= 0, "\(cache) gave back more than it took")
    }

    /// Has `forget` called at each `reset()`: it empties a cache that lives
    /// longer than one animation (it need not give its bytes back).
    public func onReset(_ forget: @escaping () -> Void) {
        forgetters.append(forget)
    }

    /// Empties every cache registered with `onReset` and gives every
    /// allowance back whole: after an animation, whose repeats are its own.
    public func reset() {
        for forget in forgetters { forget() }
        for index in held.indices { held[index] = 0 }
    }
}
