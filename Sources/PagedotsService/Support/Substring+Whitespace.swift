extension Substring {
    /// Without spaces and tabs on either side (HTTP's optional whitespace).
    var trimmingSpacesAndTabs: Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isWhitespace($0) }), let end = lastIndex(where: { !isWhitespace($0) }) else {
            return self[endIndex...]
        }
        return self[start...end]
    }
}
