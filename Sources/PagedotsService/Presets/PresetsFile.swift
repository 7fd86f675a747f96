import FoundationEssentials
import Glibc
import PagedotsCore

/// The presets file of `--presets` (docs/operating.md, "Presets"): a JSON
/// object of preset names to query strings, read at start and again on
/// `SIGHUP`.
public struct PresetsFile: Sendable {
    public var path: String

    public init(path: String) {
        self.path = path
    }

    /// The presets the file holds, checked (`Presets`), with the time zones
    /// of `zones`; or why not, in one line.
    func load(zones: any TimeZoneSource) throws(PresetsFileError) -> Presets {
        guard let bytes = readFile(path) else {
            throw PresetsFileError(path: path, problem: "cannot read it: \(String(cString: strerror(errno)))")
        }
        let queries: [String: String]
        do {
            queries = try JSONDecoder().decode([String: String].self, from: Data(bytes))
        } catch {
            throw PresetsFileError(path: path, problem: "not a JSON object of preset names to query strings: \(Self.reason(error))")
        }
        do {
            return try Presets(queries, zones: zones)
        } catch {
            throw PresetsFileError(path: path, problem: error.description)
        }
    }

    /// What the JSON decoder found wrong, where.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let place = context.codingPath.map { "preset \"\($0.stringValue)\": " }.joined()
            return place + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// A presets file that cannot be used, in one line: the file, the preset, the problem.
public struct PresetsFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public var description: String { "--presets \(path): \(problem)" }
}
