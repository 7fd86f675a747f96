import CCrypto

/// SHA-256 through OpenSSL's libcrypto.
enum Digest {
    /// The algorithm, looked up once: OpenSSL 3's one-shot `SHA256()` looks it
    /// up on every call, under a lock, and that took longer than the hashing
    /// of a small PNG. (A fetched `EVP_MD` is immutable and thread-safe.)
    nonisolated(unsafe) private static let sha256Algorithm = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()

    /// The strong entity tag of a body: the first 128 bits of its SHA-256 in
    /// hex, quoted. Equal bytes give equal tags on every replica.
    static func entityTag(of body: [UInt8]) -> String {
        "\"" + hex(sha256(body), count: 16) + "\""
    }

    /// The 32 bytes of the SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                // A failure would give every image the same tag (and wrong 304s): stop instead.
                let status = EVP_Digest(input.baseAddress, input.count, output.baseAddress, nil, sha256Algorithm, nil)
                precondition(status == 1, "OpenSSL's SHA-256 failed")
            }
        }
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
