import PagedotsCore

/// Signs and checks image URLs (docs/operating.md, "Signed URLs"): a query must end
/// with `&sig=` and the unpadded base64url HMAC-SHA256, under one of the
/// keys, of the query exactly as sent before `&sig=`. Several keys let an
/// operator rotate them: URLs are signed with the first and accepted under any.
public struct URLSigner: Sendable {
    /// In the order given; never empty.
    private let keys: [[UInt8]]

    /// Bytes of an HMAC-SHA256; its unpadded base64url text has 43 characters.
    static let macLength = Digest.sha256Length
    static let signatureLength = 43

    public init(key: String) {
        keys = [Array(key.utf8)]
    }

    /// A signer that signs with `first` and accepts any of `keys`; nil for no keys.
    public init?(keys: [String]) {
        guard !keys.isEmpty else { return nil }
        self.keys = keys.map { Array($0.utf8) }
    }

    /// How many keys it accepts.
    public var keyCount: Int { keys.count }

    /// `query` with `&sig=…` appended, under the first key.
    public func sign(_ query: Substring) -> String {
        let separator = query.isEmpty ? "sig=" : "&sig="
        return String(query) + separator + Base64URL.encode(mac(of: query, key: keys[0]))
    }

    /// The signed part of `query` (what the parameters are read from), or the
    /// reason it is refused.
    func verify(_ query: Substring) -> Result<Substring, SignatureError> {
        let signed: Substring
        let signature: Substring
        if query.hasPrefix("sig=") {
            (signed, signature) = ("", query.dropFirst(4))
        } else if let marker = Self.lastSignatureMarker(in: query) {
            (signed, signature) = (query[..<marker], query[query.index(marker, offsetBy: 5)...])
        } else {
            return .failure(.missing)
        }
        guard signature.utf8.count == Self.signatureLength, let given = Base64URL.decode(Array(signature.utf8)),
              given.count == Self.macLength else {
            return .failure(.malformed)
        }
        for key in keys {
            let expected = mac(of: signed, key: key)
            // Every byte compared whatever the first difference, so the time taken tells nothing.
            let differs = zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) }
            if differs == 0 { return .success(signed) }
        }
        return .failure(.wrong)
    }

    /// Where the last `&sig=` starts.
    private static func lastSignatureMarker(in query: Substring) -> Substring.Index? {
        var index = query.endIndex
        while index > query.startIndex {
            index = query.index(before: index)
            if query[index] == "&", query[index...].hasPrefix("&sig=") { return index }
        }
        return nil
    }

    private func mac(of message: Substring, key: [UInt8]) -> [UInt8] {
        Digest.hmacSHA256(key: key, message: Array(message.utf8))
    }
}

/// Why a signed URL is refused.
enum SignatureError: Error, Equatable {
    case missing, malformed, wrong
    /// Its `expires` (seconds since 1970) has come.
    case expired(Int64)

    var message: String {
        switch self {
        case .missing: "signature required: image URLs must end with &sig=… (see pagedots sign)"
        case .malformed: "signature malformed: sig must be 43 characters of unpadded base64url"
        case .wrong: "signature does not match this query"
        case .expired(let time): "expired: this URL was valid until \(CivilTime.iso8601(time)) (expires=\(time))"
        }
    }
}

/// Unpadded base64url (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { text.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        var value = 0
        var bits = 0
        for character in text {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            value = (value << 6) | digit
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xFF))
            }
        }
        // Unused trailing bits must be zero, so each signature has one spelling.
        guard value & ((1 << bits) - 1) == 0 else { return nil }
        return bytes
    }
}
