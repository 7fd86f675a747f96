/// Bytes appended at the back and consumed from the front, keeping their
/// storage between uses (a connection's unparsed input, or its unsent output).
struct ByteBuffer {
    private var storage: [UInt8] = []
    private var start = 0
    /// Storage above this is given back when the buffer empties, so that an
    /// idle connection does not keep a large response's memory.
    private let retainedCapacity: Int

    init(retainedCapacity: Int) {
        self.retainedCapacity = retainedCapacity
    }

    /// Bytes not yet consumed.
    var count: Int { storage.count - start }
    var isEmpty: Bool { storage.count == start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        // Through a buffer pointer: the generic append of an array retained
        // and released it, on every piece of every response.
        bytes.withUnsafeBytes { append($0) }
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends what `fill` writes into `count` bytes of room it is given: as
    /// many bytes as it returns, none when it returns nil (a failure, passed on).
    mutating func append(upTo count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int?) -> Int? {
        compactIfWorthIt()
        let start = storage.count
        storage.append(contentsOf: repeatElement(0, count: count))
        let written = storage.withUnsafeMutableBytes { fill(UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        storage.removeSubrange((start + min(written ?? 0, count))...)
        return written
    }

    mutating func appendHeaderLine(_ field: HTTPHeaderField) {
        compactIfWorthIt()
        storage.appendHeaderLine(field)
    }

    /// Drops the first `n` unconsumed bytes.
    mutating func consume(_ n: Int) {
        start += n
        if start == storage.count { removeAll() }
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: storage.capacity <= retainedCapacity)
        start = 0
    }

    /// Calls `body` with the unconsumed bytes.
    func withUnconsumedBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try storage.withUnsafeBufferPointer { (bytes) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// Moves unconsumed bytes to the front once the consumed part is large, so
    /// that a long pipelined stream does not grow the storage.
    private mutating func compactIfWorthIt() {
        if start > 0, start >= 4096 || start >= storage.count / 2 {
            storage.removeSubrange(0..<start)
            start = 0
        }
    }
}
