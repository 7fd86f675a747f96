import PagedotsCore

// Stand-in until the parameter table's canonical key lands.
extension IndicatorSpec {
    var cacheKey: String { "\(self)" }
}
