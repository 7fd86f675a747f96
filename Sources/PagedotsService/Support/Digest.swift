import CGLib

/// SHA-256 and HMAC-SHA256 through GLib (loaded anyway, as Pango's base).
enum Digest {
    /// Bytes of a SHA-256 digest.
    static let sha256Length = 32

    /// The strong entity tag of a body: the first 128 bits of its SHA-256 in
    /// hex, quoted. Equal bytes give equal tags on every replica.
    static func entityTag(of body: [UInt8]) -> String {
        entityTag(sha256: sha256(body))
    }

    /// The strong entity tag of a body whose SHA-256 is `digest`.
    static func entityTag(sha256 digest: [UInt8]) -> String {
        "\"" + hex(digest, count: 16) + "\""
    }

    /// The 32 bytes of the SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        let checksum = SHA256()
        bytes.withUnsafeBytes { checksum.update($0) }
        return checksum.finish()
    }

    /// A SHA-256 of bytes that come a piece at a time.
    final class SHA256 {
        // GLib aborts when out of memory rather than return NULL.
        private let checksum = g_checksum_new(G_CHECKSUM_SHA256)

        deinit {
            g_checksum_free(checksum)
        }

        /// Adds the next bytes.
        func update(_ bytes: UnsafeRawBufferPointer) {
            g_checksum_update(checksum, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }

        /// The 32 bytes of the digest of everything added (nothing may be added after).
        func finish() -> [UInt8] {
            digest { g_checksum_get_digest(checksum, $0, $1) }
        }
    }

    /// The 32 bytes of the HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let hmac = key.withUnsafeBufferPointer { g_hmac_new(G_CHECKSUM_SHA256, $0.baseAddress, gsize($0.count)) }
        defer { g_hmac_unref(hmac) }
        message.withUnsafeBufferPointer { g_hmac_update(hmac, $0.baseAddress, $0.count) }
        return digest { g_hmac_get_digest(hmac, $0, $1) }
    }

    /// The digest that `read` writes, given room for it and its length in and out.
    private static func digest(_ read: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<gsize>) -> Void) -> [UInt8] {
        var length = gsize(sha256Length)
        let digest = [UInt8](unsafeUninitializedCapacity: sha256Length) { buffer, initialized in
            read(buffer.baseAddress, &length)
            initialized = Int(length)
        }
        // A short digest would give every image the same tag (and wrong 304s): stop instead.
        precondition(digest.count == sha256Length, "GLib's SHA-256 gave \(digest.count) bytes")
        return digest
    }

    /// The first `count` bytes (all by default) in lowercase hex.
    static func hex(_ bytes: [UInt8], count: Int? = nil) -> String {
        let digits: StaticString = "0123456789abcdef"
        let count = min(count ?? bytes.count, bytes.count)
        return String(unsafeUninitializedCapacity: 2 * count) { text in
            for index in 0..<count {
                text[2 * index] = digits.utf8Start[Int(bytes[index] >> 4)]
                text[2 * index + 1] = digits.utf8Start[Int(bytes[index] & 15)]
            }
            return 2 * count
        }
    }
}
