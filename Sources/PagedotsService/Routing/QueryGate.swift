import PagedotsCore

/// What an image (or carousel) query passes before its parameters are read,
/// in this order (docs/http.md, "Refusals"): its signature, when the service
/// has keys (`403`); its `expires` (a `400` when malformed; with keys, a
/// `403` once it has come); with `--only-presets`, what it may set (`403`);
/// then its presets, expanded (a `400` for an unknown name). What comes out
/// is the query to read the parameters from.
struct QueryGate: Sendable {
    let signer: URLSigner?
    let presets: PresetStore
    let onlyPresets: Bool

    /// A query let through.
    struct Admitted {
        /// The query with its presets expanded and without `preset`, `expires` and `sig`.
        var parameters: Substring
        /// When its signature stops being valid (seconds since 1970); nil
        /// without `expires` or without keys.
        var expires: Int64?
        /// The presets' `PresetStore.Snapshot.generation` it was expanded with.
        var presetGeneration: Int
    }

    /// Lets `query` (as sent) through at `now` (seconds since 1970), or says
    /// why not. `suffixSets` are the parameters the path's suffix sets
    /// (`PathOptions.parameters`): the URL's own, which a preset does not override.
    func admit(_ query: Substring, suffixSets: [ParameterName], now: Int64) throws(ServiceError) -> Admitted {
        var signed = query
        if let signer {
            switch signer.verify(query) {
            case .success(let part): signed = part
            case .failure(let error): throw .forbidden(error)
            }
        }
        var directives: QueryDirectives
        do {
            directives = try QueryDirectives(signed)
        } catch {
            throw .badParameter(error)
        }
        directives.ownNames += suffixSets.map { Substring($0.rawValue) }
        // Without keys, `expires` is validated and has no effect.
        let expires = signer == nil ? nil : directives.expires
        if let expires, now >= expires { throw .forbidden(.expired(expires)) }
        if onlyPresets {
            do {
                try Presets.checkOnlyPresets(directives)
            } catch {
                throw .notAllowed(error)
            }
        }
        let snapshot = presets.snapshot
        do {
            return Admitted(parameters: try snapshot.presets.expand(directives), expires: expires, presetGeneration: snapshot.generation)
        } catch {
            throw .badParameter(error)
        }
    }
}
