#if canImport(Glibc)
import Glibc
#endif

/// The address a connection is about to use (or uses): an IPv4 or IPv6
/// address and a TCP port. `FetchPolicy.allowsAddress` judges it.
public struct FetchAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]
    public let port: Int

    /// An address from its bytes (4 or 16) and a port (0…65535); nil otherwise.
    public init?(bytes: [UInt8], port: Int) {
        guard bytes.count == 4 || bytes.count == 16, (0...65535).contains(port) else { return nil }
        self.bytes = bytes
        self.port = port
    }

    /// An address from its usual text (`127.0.0.1`, `::1`, `::ffff:10.0.0.1`; no brackets)
    /// and a port; nil if `inet_pton` does not read it.
    public init?(_ text: String, port: Int) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(bytes: withUnsafeBytes(of: ipv4) { Array($0) }, port: port)
        } else if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self.init(bytes: withUnsafeBytes(of: ipv6) { Array($0) }, port: port)
        } else {
            return nil
        }
    }

    /// The address in a socket address of `length` bytes (a `sockaddr_in` or
    /// `sockaddr_in6`, by `family`); nil for any other family or a short one.
    init?(socketAddress: UnsafeRawPointer, family: Int32, length: Int) {
        switch family {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let address = socketAddress.loadUnaligned(as: sockaddr_in.self)
            self.init(bytes: withUnsafeBytes(of: address.sin_addr) { Array($0) }, port: Int(UInt16(bigEndian: address.sin_port)))
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let address = socketAddress.loadUnaligned(as: sockaddr_in6.self)
            self.init(bytes: withUnsafeBytes(of: address.sin6_addr) { Array($0) }, port: Int(UInt16(bigEndian: address.sin6_port)))
        default:
            return nil
        }
    }

    /// True for an IPv6 address (including one that carries an IPv4 address).
    public var isIPv6: Bool { bytes.count == 16 }

    /// The address as `inet_ntop` writes it (`127.0.0.1`, `::1`).
    public var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { address in
            inet_ntop(isIPv6 ? AF_INET6 : AF_INET, address.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        return written ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    /// `127.0.0.1:80` or `[::1]:80`.
    public var description: String { isIPv6 ? "[\(text)]:\(port)" : "\(text):\(port)" }
}
