@testable import PagedotsService
import Testing

/// SHA-256 and the entity tags made from it.
@Suite struct DigestTests {
    @Test func sha256MatchesTheStandardVectors() {
        // FIPS 180-2 examples.
        #expect(Digest.hex(Digest.sha256(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.hex(Digest.sha256([]))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func hmacSHA256MatchesRFC4231() {
        // Test case 2, and test case 6 (a key longer than the hash's block, hashed first).
        #expect(Digest.hex(Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Digest.hex(Digest.hmacSHA256(
            key: [UInt8](repeating: 0xAA, count: 131), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        )) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func anEntityTagIsTheFirst128BitsQuoted() {
        #expect(Digest.entityTag(of: Array("abc".utf8)) == "\"ba7816bf8f01cfea414140de5dae2223\"")
    }

    @Test func hashingFromManyThreadsAtOnceGivesTheSameDigest() async {
        let body = [UInt8](repeating: 7, count: 10_000)
        let expected = Digest.sha256(body)
        await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { Digest.sha256(body) } }
            for await digest in group { #expect(digest == expected) }
        }
    }
}
