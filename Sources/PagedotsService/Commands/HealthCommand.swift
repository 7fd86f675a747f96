import Glibc

/// `pagedots health`: asks a running server for `/healthz`; exit 0 if it
/// answers 200 within two seconds. The Docker HEALTHCHECK, with no curl.
enum HealthCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let configuration: ServiceConfiguration
        switch CommandLineOption.configuration(arguments: arguments) {
        case .success(let value): configuration = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
        }
        let listening = configuration.server.host
        let host = listening == "0.0.0.0" || listening.isEmpty ? "127.0.0.1" : listening
        let port = configuration.server.port
        guard let reply = fetch(host: host, port: port, request: "GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n") else {
            return PagedotsCommand.fail("no answer from http://\(host):\(port)/healthz")
        }
        guard reply.hasPrefix("HTTP/1.1 200 ") else {
            return PagedotsCommand.fail("unhealthy: \(reply.prefix { $0 != "\r" })")
        }
        return 0
    }

    /// Sends `request` and returns the reply until the server closes, or nil.
    private static func fetch(host: String, port: Int, request: String) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else { return nil }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
              writeAll(Array(request.utf8), to: socket) else { return nil }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reply.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            reply += buffer[..<count]
        }
        return reply.isEmpty ? nil : String(decoding: reply, as: UTF8.self)
    }
}
