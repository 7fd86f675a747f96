import Testing
@testable import PagedotsService

@Suite struct URLSignerTests {
    let signer = URLSigner(key: "0123456789abcdef0123")

    /// Computed independently with Python's hmac and base64 modules.
    @Test func signatureIsUnpaddedBase64URLOfTheHMAC() {
        #expect(signer.sign("pages=5&current=2") == "pages=5&current=2&sig=7aUB3pKlK8dDKhzd9jO_Pqm82E1vojJQ56FCpeGe_oM")
        #expect(signer.sign("pages=5") == "pages=5&sig=BThxsYU444_btf8WWwnK_CNRYbqzx_ZAB3ijO4MzvW0")
    }

    @Test func acceptsWhatItSignedAndReturnsTheSignedPart() {
        let query = signer.sign("pages=5&current=2&utm_source=x")
        #expect(signer.verify(Substring(query)) == .success("pages=5&current=2&utm_source=x"))
        #expect(signer.verify(Substring(signer.sign(""))) == .success(""))
    }

    @Test(arguments: [
        ("pages=5&current=2", SignatureError.missing),
        ("pages=5&xsig=7aUB3pKlK8dDKhzd9jO_Pqm82E1vojJQ56FCpeGe_oM", .missing),
        ("pages=5&sig=abc", .malformed),
        ("pages=5&sig=7aUB3pKlK8dDKhzd9jO_Pqm82E1vojJQ56FCpeGe_oM=", .malformed),
        ("pages=5&sig=7aUB3pKlK8dDKhzd9jO_Pqm82E1vojJQ56FCpeGe+oM", .malformed),
        ("pages=5&current=2&sig=BThxsYU444_btf8WWwnK_CNRYbqzx_ZAB3ijO4MzvW0", .wrong),
        ("pages=5&current=3&sig=7aUB3pKlK8dDKhzd9jO_Pqm82E1vojJQ56FCpeGe_oM", .wrong),
        ("pages=5&current=2&sig=7aUB3pKlK8dDKhzd9jO_Pqm82E1vojJQ56FCpeGe_oM&x=1", .malformed),
    ])
    func refusals(query: String, error: SignatureError) {
        #expect(signer.verify(Substring(query)) == .failure(error))
    }

    @Test func anotherKeyDoesNotVerify() {
        let other = URLSigner(key: "another key of sixteen+")
        #expect(other.verify(Substring(signer.sign("pages=5"))) == .failure(.wrong))
    }

    @Test func base64URLRoundTripsAndRejectsNonCanonicalSpellings() {
        for length in 0...34 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Array(Base64URL.encode(bytes).utf8)) == bytes)
        }
        #expect(Base64URL.decode(Array("AB".utf8)) == nil)  // trailing bits set
        #expect(Base64URL.decode(Array("A".utf8)) == nil)
    }
}
