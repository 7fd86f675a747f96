extension Array where Element == UInt8 {
    /// These bytes in storage of their own size. Encoders that grow their
    /// output by appending leave up to twice the bytes allocated; an image
    /// kept in the cache holds only what it counts (docs/operating.md, "Memory").
    func withExactCapacity() -> [UInt8] {
        guard capacity > count else { return self }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
        }
    }
}
