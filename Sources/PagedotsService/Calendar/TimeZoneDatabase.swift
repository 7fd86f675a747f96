import Glibc
import PagedotsCore
import Locking

/// The system's time zone database (Debian's `tzdata`): the IANA names that
/// `tzdata.zi` lists (zones and their links, as the database spells them,
/// matched in any case) and, for each, its TZif file, read when the zone is
/// first asked for and kept. `UTC` needs no file. Safe from any thread.
///
/// Only names from the list are opened, so a `tz` value can never name a
/// path outside the database (`../`), nor one of its other files
/// (`zone.tab`, the `posix/` and `right/` copies).
final class TimeZoneDatabase: TimeZoneSource {
    /// `$TZDIR` when set (as the C library reads it), else `/usr/share/zoneinfo`.
    let directory: String

    private struct State {
        /// Lowercased name → the name as the database spells it; nil until read.
        var names: [String: String]?
        /// The zones read so far, by their spelling (at most one per name).
        var zones: [String: TimeZoneRules] = [:]
    }

    private let state = Locked(State())

    /// The database of this system.
    static let system = TimeZoneDatabase(
        directory: getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    )

    init(directory: String) {
        self.directory = directory
    }

    /// How many zone names the database lists: 0 when it is missing (then only UTC is known).
    var nameCount: Int {
        state.withLock { state in
            loadNames(&state)
            return state.names?.count ?? 0
        }
    }

    func zone(named name: String) -> TimeZoneRules? {
        if name.lowercased() == TimeZoneRules.utc.name.lowercased() { return .utc }
        return state.withLock { state in
            loadNames(&state)
            guard let spelling = state.names?[name.lowercased()] else { return nil }
            if let known = state.zones[spelling] { return known }
            guard let bytes = readFile(directory + "/" + spelling), let zone = TimeZoneRules(name: spelling, tzif: bytes) else {
                return nil
            }
            state.zones[spelling] = zone
            return zone
        }
    }

    /// Reads the names once: the second field of `Z` lines and the third of
    /// `L` lines of `tzdata.zi` (the database's own text form).
    private func loadNames(_ state: inout State) {
        guard state.names == nil else { return }
        var names: [String: String] = [:]
        let text = readFile(directory + "/tzdata.zi") ?? []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            let field = switch fields.first {
            case [UInt8(ascii: "Z")]?: 1
            case [UInt8(ascii: "L")]?: 2
            default: 0
            }
            guard field > 0, fields.count > field else { continue }
            let name = String(decoding: fields[field], as: UTF8.self)
            names[name.lowercased()] = name
        }
        state.names = names
    }
}
