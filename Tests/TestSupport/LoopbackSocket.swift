import Glibc

/// A refused or failed connection to a loopback port.
public struct LoopbackConnectError: Error, CustomStringConvertible {
    public var port: Int
    public var code: Int32
    public var description: String { "cannot connect to 127.0.0.1:\(port): errno \(code)" }
}

/// A blocking TCP socket connected to 127.0.0.1:`port`, whose reads give up
/// after 60 s so that a server bug fails a test instead of hanging it (long
/// enough for a debug build drawing a large animation on a loaded machine).
public func connectToLoopback(port: Int) throws(LoopbackConnectError) -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard status == 0 else {
        let code = errno
        close(descriptor)
        throw LoopbackConnectError(port: port, code: code)
    }
    return descriptor
}
