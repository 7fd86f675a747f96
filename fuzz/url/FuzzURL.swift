// libFuzzer harness for slide URLs: compiled together with
// Sources/PagedotsCore as one module (see scripts/fuzz).
//
// Input: an `--allow-source` prefix, a newline, a URL; no newline: the whole
// input is the URL, matched against a few fixed prefixes. The harness checks
// that nothing traps; that a refusal's reason is one line; that normalising
// an accepted URL's text gives the same URL, strict RFC 3986 ASCII with no
// dot segment and no escaped unreserved character left, and a host with no
// `@`, `\`, `%`, whitespace or control character; that an IP-literal host
// is the canonical text of its address and is classified as that address
// parsed again (from text and from bytes); that a domain host is no IP
// literal and keeps DNS's lengths; that a prefix reads back as itself and a
// match is stable under re-normalisation and is the plain text-prefix rule
// for a prefix without `*`, the whole-label rule for `*.`; and that the
// input's first 4 or 16 bytes, as an address, read back from its text.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    checkAddressBytes(bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    guard let newline = text.unicodeScalars.firstIndex(of: "\n") else {
        let url = checkURL(text)
        for prefix in ["https://*/", "https://*.shop.example/img/", "http://127.0.0.1:8080/", "https://a.example/x"] {
            checkPrefix(prefix, against: url)
        }
        return 0
    }
    let url = checkURL(String(text.unicodeScalars[text.unicodeScalars.index(after: newline)...]))
    checkPrefix(String(text.unicodeScalars[..<newline]), against: url)
    return 0
}

/// The URL's invariants when accepted; nil when refused (with a one-line reason).
private func checkURL(_ text: String) -> SourceURL? {
    let url: SourceURL
    do {
        url = try SourceURL(text)
    } catch {
        precondition(!error.description.contains(where: \.isNewline), "a reason with a line break")
        return nil
    }
    precondition((try? SourceURL(url.text)) == url, "normalising the normalised text changes it")
    precondition(url.text.utf8.count <= SourceURL.maximumLength, "too long")
    precondition(url.text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: "\\") },
                 "a character outside printable ASCII, a # or a \\")
    let portText = url.port == url.scheme.defaultPort ? "" : ":\(url.port)"
    precondition(url.text == "\(url.scheme.rawValue)://\(url.host)\(portText)\(url.pathAndQuery)", "text and parts disagree")
    precondition((1...65535).contains(url.port), "port \(url.port)")
    precondition(url.host.utf8.allSatisfy { !"@\\/%?#".utf8.contains($0) }, "a forbidden character in the host")
    checkPathAndQuery(url.pathAndQuery)
    if let address = url.address {
        let hostAddress = url.host.hasPrefix("[") ? String(url.host.dropFirst().dropLast()) : url.host
        precondition(hostAddress == address.description, "an IP-literal host that is not its address's canonical text")
        let parsed = IPAddress(url.host)
        precondition(parsed == address && parsed?.classification == address.classification, "the host parses to another address")
        precondition(IPAddress(bytes: address.bytes)?.classification == address.classification, "the bytes classify differently")
        let (strict, lenient) = (AddressPolicy(), AddressPolicy(allowPrivate: true))
        precondition(strict.allows(address) == (address.classification.category == .publicUnicast), "the policy disagrees with the category")
        precondition(!strict.allows(address) || lenient.allows(address), "allowing private refuses a public address")
    } else {
        precondition(IPAddress(url.host) == nil, "a domain host that parses as an address")
        let labels = url.host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        precondition(url.host.utf8.count <= 253 && labels.allSatisfy { (1...63).contains($0.count) }, "a host outside DNS's lengths")
        let hostByte: (UInt8) -> Bool = { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        precondition(labels.allSatisfy { $0.allSatisfy(hostByte) }, "a host character other than a-z, 0-9, - and _")
    }
    return url
}

/// No dot segment, no escape of an unreserved character, upper-case hex digits.
private func checkPathAndQuery(_ pathAndQuery: String) {
    let bytes = Array(pathAndQuery.utf8)[...]
    precondition(bytes.first == UInt8(ascii: "/"), "a path that does not start with /")
    let path = bytes.prefix { $0 != UInt8(ascii: "?") }
    for segment in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
        precondition(!segment.elementsEqual(".".utf8) && !segment.elementsEqual("..".utf8), "a dot segment left")
    }
    for index in bytes.indices where bytes[index] == UInt8(ascii: "%") {
        let escaped = URLEscapes.escapedByte(in: bytes, at: index)
        precondition(escaped.map { !URLEscapes.isUnreserved($0) } == true, "an escaped unreserved character or a bad escape")
        precondition(bytes[(index + 1)...(index + 2)].allSatisfy { !(0x61...0x66).contains($0) }, "lower-case hex digits")
    }
}

/// The prefix's invariants, and its match of `url`.
private func checkPrefix(_ text: String, against url: SourceURL?) {
    let prefix: SourcePrefix
    do {
        prefix = try SourcePrefix(text)
    } catch {
        precondition(!error.description.contains(where: \.isNewline), "a prefix error with a line break")
        return
    }
    precondition((try? SourcePrefix(prefix.text)) == prefix, "reading the normalised prefix changes it")
    precondition(prefix.pathPrefix.hasPrefix("/"), "a prefix path without /")
    guard let url else { return }
    let matches = prefix.matches(url)
    precondition((try? SourceURL(url.text)).map(prefix.matches) == matches, "a match that changes with re-normalisation")
    let sameOrigin = url.scheme == prefix.scheme && url.port == prefix.port && url.pathAndQuery.utf8.starts(with: prefix.pathPrefix.utf8)
    switch prefix.host {
    case .exactly:
        precondition(matches == url.text.utf8.starts(with: prefix.text.utf8), "a match that is not the text-prefix rule")
    case .any:
        precondition(matches == sameOrigin, "* that does not match every host")
    case .subdomains(let suffix):
        let host = Array(url.host.utf8), tail = Array(("." + suffix).utf8)
        let underSuffix = url.address == nil && host.count > tail.count && host.suffix(tail.count).elementsEqual(tail)
        precondition(matches == (sameOrigin && underSuffix), "*. that does not match whole labels")
    }
}

/// The input's first 16 or 4 bytes as an address: its text reads back as it.
private func checkAddressBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    for count in [4, 16] where bytes.count >= count {
        guard let address = IPAddress(bytes: bytes.prefix(count)) else { preconditionFailure("\(count) bytes are no address") }
        precondition(IPAddress(address.description) == address, "\(address) does not read back")
        precondition((IPAddress("[\(address)]") == address) == (count == 16), "[\(address)] reads wrong")
        precondition(address.bytes.elementsEqual(bytes.prefix(count)), "the bytes differ")
        _ = AddressPolicy().refusal(of: address)
    }
}
