import CCrypto

/// SHA-256 through OpenSSL's libcrypto.
enum Digest {
    /// The strong entity tag of a body: the first 128 bits of its SHA-256 in
    /// hex, quoted. Equal bytes give equal tags on every replica.
    static func entityTag(of body: [UInt8]) -> String {
        "\"" + hex(sha256(body).prefix(16)) + "\""
    }

    /// The 32 bytes of the SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
