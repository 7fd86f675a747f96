import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A socket address as the kernel takes it.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    /// The address's port (IPv4 or IPv6).
    var port: Int {
        get {
            withPointer { pointer in
                switch Int32(storage.ss_family) {
                case AF_INET: Int(UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }))
                case AF_INET6: Int(UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }))
                default: 0
                }
            }
        }
        set {
            let port = UInt16(truncatingIfNeeded: newValue).bigEndian
            let family = Int32(storage.ss_family)
            withMutablePointer { pointer in
                switch family {
                case AF_INET: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = port }
                case AF_INET6: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = port }
                default: break
                }
            }
        }
    }

    /// `127.0.0.1:54321` or `[::1]:54321`.
    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        let converted: Bool = withPointer { pointer in
            switch family {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    return inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)) != nil
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count)) != nil
                }
            default:
                false
            }
        }
        guard converted else { return "unknown" }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The IP address alone, network order: 4 bytes for IPv4, 16 for IPv6.
    var addressBytes: [UInt8] {
        withPointer { pointer in
            switch Int32(storage.ss_family) {
            case AF_INET: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr, Array.init) }
            case AF_INET6: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr, Array.init) }
            default: []
            }
        }
    }

    func withPointer<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafePointer(to: storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    mutating func withMutablePointer<R>(_ body: (UnsafeMutablePointer<sockaddr>) -> R) -> R {
        withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}

/// The few socket operations the server makes, each through `systemCall`.
enum Socket {
    /// `count` listening sockets on `host:port`, sharing the port with
    /// `SO_REUSEPORT` so that each event loop accepts on its own. Port 0 picks
    /// a free port. Throws a one-line error for a bad host or a port in use.
    static func listen(host: String, port: Int, count: Int) throws(HTTPServerError) -> (descriptors: [Int32], port: Int) {
        var address = try resolve(host: host, port: port)
        let place = "\(host):\(port)"
        if port != 0 {
            // SO_REUSEPORT would let us join another server's sockets on the
            // port; a probe without it fails if anything listens there.
            let probe = try makeSocket(address, place: place, reusePort: false)
            closeDescriptor(probe)
        }
        var descriptors: [Int32] = []
        do throws(HTTPServerError) {
            for _ in 0..<count {
                let descriptor = try makeSocket(address, place: place, reusePort: true)
                descriptors.append(descriptor)
                if address.port == 0 {
                    var bound = SocketAddress()
                    var length = bound.length
                    _ = bound.withMutablePointer { getsockname(descriptor, $0, &length) }
                    address.port = bound.port
                }
            }
        } catch {
            descriptors.forEach(closeDescriptor)
            throw error
        }
        return (descriptors, address.port)
    }

    private static func resolve(host: String, port: Int) throws(HTTPServerError) -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        defer { if let results { freeaddrinfo(results) } }
        guard status == 0, let first = results, let found = first.pointee.ai_addr else {
            throw HTTPServerError("cannot listen on \(host): not a host this machine has (\(String(cString: gai_strerror(status))))")
        }
        var address = SocketAddress()
        address.length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &address.storage) { storage in
            storage.copyMemory(from: UnsafeRawBufferPointer(start: found, count: Int(first.pointee.ai_addrlen)))
        }
        return address
    }

    private static func makeSocket(_ address: SocketAddress, place: String, reusePort: Bool) throws(HTTPServerError) -> Int32 {
        let family = Int32(address.storage.ss_family)
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        do throws(SystemError) {
            guard let descriptor = try systemCall("socket", { socket(family, type, 0) }) else {
                throw SystemError(call: "socket", code: EAGAIN)
            }
            do throws(SystemError) {
                try setOption(descriptor, SOL_SOCKET, SO_REUSEADDR)
                if reusePort { try setOption(descriptor, SOL_SOCKET, SO_REUSEPORT) }
                _ = try systemCall("bind") { address.withPointer { bind(descriptor, $0, address.length) } }
                _ = try systemCall("listen") { Glibc.listen(descriptor, SOMAXCONN) }
            } catch {
                closeDescriptor(descriptor)
                throw error
            }
            return descriptor
        } catch where error.code == EADDRINUSE {
            throw HTTPServerError("cannot listen on \(place): the port is already in use")
        } catch {
            throw HTTPServerError("cannot listen on \(place): \(error.reason)")
        }
    }

    /// Sets a boolean socket option.
    static func setOption(_ descriptor: Int32, _ level: Int32, _ option: Int32) throws(SystemError) {
        var on: Int32 = 1
        _ = try systemCall("setsockopt") {
            setsockopt(descriptor, level, option, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// A new non-blocking connection, or nil when none is waiting.
    static func accept(_ listener: Int32, peer: inout SocketAddress) throws(SystemError) -> Int32? {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        defer { peer.length = length }
        return try systemCall("accept4") { peer.withMutablePointer { accept4(listener, $0, &length, flags) } }
    }

    /// Bytes read into `buffer` (0 at end of input), or nil when none are waiting.
    static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        try systemCall("recv") { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// Bytes of `bytes` the kernel took, or nil when it takes none now.
    /// `MSG_NOSIGNAL`: a closed peer is an `EPIPE` error, not a `SIGPIPE`.
    static func send(_ descriptor: Int32, _ bytes: UnsafeBufferPointer<UInt8>) throws(SystemError) -> Int? {
        try systemCall("send") { Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Makes the coming `close` reset the connection and drop what the kernel
    /// has not sent (`SO_LINGER` with a zero timeout), instead of keeping it
    /// for a client that does not read.
    static func discardUnsentOnClose(_ descriptor: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = try? systemCall("setsockopt") {
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
    }

    /// Stops sending (FIN) but keeps reading.
    static func shutdownOutput(_ descriptor: Int32) {
        _ = try? systemCall("shutdown") { shutdown(descriptor, Int32(SHUT_WR)) }
    }
}
