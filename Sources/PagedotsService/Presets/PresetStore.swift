import HTTPServer
import PagedotsCore
import Locking

/// The presets the service draws now, and the `/presets.json` that lists
/// them; replaced as a whole when the file is read again (`SIGHUP`). Safe
/// from any thread.
final class PresetStore: Sendable {
    /// One set of presets and what is made of it.
    struct Snapshot: Sendable {
        let presets: Presets
        /// Counts the sets this store has held: a URL's answer remembered
        /// under one set must not outlive it (`ImageCache.forgetURLs`).
        let generation: Int
        /// `/presets.json`: names to queries, sorted by name.
        let document: Representations
    }

    /// The file the presets come from; nil when there is none (`{}`).
    let file: PresetsFile?
    private let zones: any TimeZoneSource
    private let current: Locked<Snapshot>

    /// `/presets.json` may be kept a minute: a reloaded file shows within one.
    static let cacheControl = "public, max-age=60"

    init(_ presets: Presets, file: PresetsFile?, zones: any TimeZoneSource) {
        self.file = file
        self.zones = zones
        current = Locked(Self.snapshot(presets, generation: 0))
    }

    var snapshot: Snapshot { current.withLock { $0 } }

    /// Reads the file again and, when it is good, draws its presets from now
    /// on; a bad file leaves the presets as they were. Nil without a file.
    func reload() -> Result<Snapshot, PresetsFileError>? {
        guard let file else { return nil }
        let presets: Presets
        do {
            presets = try file.load(zones: zones)
        } catch {
            return .failure(error)
        }
        return .success(current.withLock { current in
            current = Self.snapshot(presets, generation: current.generation + 1)
            return current
        })
    }

    private static func snapshot(_ presets: Presets, generation: Int) -> Snapshot {
        let members = presets.queries.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }
        let response = HTTPResponse(
            status: 200,
            headers: [HTTPHeaderField("Content-Type", "application/json"), HTTPHeaderField("Cache-Control", cacheControl)],
            body: Array(JSONValue.object(members).serialized.utf8),
            label: Route.presets.rawValue
        )
        return Snapshot(presets: presets, generation: generation, document: Representations(response, validated: true, compressible: true))
    }
}
