#if canImport(Glibc)
import Glibc
#endif

/// A cache key of many plain elements (pixels, rows of bytes, words),
/// hashed once and compared as bytes: a lookup and the insertion after a
/// miss both hash a key, and its elements are kilobytes. `Array`'s own
/// hashing goes element by element (and its `==` too, several times slower
/// than `memcmp`). Equal digests still compare every byte.
public struct DigestKey<Element: BitwiseCopyable>: Hashable {
    public let elements: [Element]
    /// What else tells two keys apart (a width, a strategy), compared with the elements.
    public let tag: Int
    private let digest: UInt64

    /// The key of `elements` and `tag`, its digest taken over every
    /// `stride`th eight bytes of the elements (and over their count): where
    /// keys are many and equal ones common, hashing part of them costs less
    /// than it saves (an odd stride varies the columns sampled from row to row).
    public init(_ elements: [Element], tag: Int = 0, stride: Int = 1) {
        self.elements = elements
        self.tag = tag
        digest = elements.withUnsafeBytes { Self.digest($0, stride: max(stride, 1)) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
        hasher.combine(tag)
    }

    public static func == (a: DigestKey, b: DigestKey) -> Bool {
        guard a.digest == b.digest && a.tag == b.tag && a.elements.count == b.elements.count else { return false }
        return a.elements.withUnsafeBytes { left in
            b.elements.withUnsafeBytes { right in
                guard let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return true }
                return memcmp(leftBytes, rightBytes, left.count) == 0
            }
        }
    }

    /// Eight bytes at a time, multiplied and folded: several times the speed
    /// of a CRC and of `Hasher`, which then mixes the result.
    private static func digest(_ bytes: UnsafeRawBufferPointer, stride: Int) -> UInt64 {
        var digest = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= bytes.count {
            digest = (digest ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            digest ^= digest >> 29
            offset += 8 * stride
        }
        let whole = bytes.count & ~7
        for index in whole ..< bytes.count {
            digest = (digest ^ UInt64(bytes[index])) &* 0x9E37_79B9_7F4A_7C15
        }
        return digest
    }
}
