@testable import HTTPServer
@testable import PagedotsService
import Locking

/// What a service answered, by request name, as responders deliver it (from
/// any thread, so renders can be waited for without sleeping).
final class RecordedAnswers: Sendable {
    private let statuses = Locked<[String: [Int]]>([:])
    private let heads = Locked<[String: String]>([:])
    private let bodies = Locked<[String: [UInt8]]>([:])
    private let delivered = Semaphore()

    /// A responder that records its answer under `name`.
    func responder(_ name: String) -> HTTPResponder {
        HTTPResponder { [self] response, _ in
            statuses.withLock { $0[name, default: []].append(response.status) }
            heads.withLock { $0[name] = String(decoding: response.head, as: UTF8.self) }
            bodies.withLock { $0[name] = response.sentBody }
            delivered.signal()
        }
    }

    func statuses(_ name: String) -> [Int] { statuses.withLock { $0[name] ?? [] } }

    func head(_ name: String) -> String { heads.withLock { $0[name] ?? "" } }

    /// The body of the last answer under `name`, as text.
    func body(_ name: String) -> String { bodies.withLock { String(decoding: $0[name] ?? [], as: UTF8.self) } }

    /// Blocks until `count` more answers have arrived.
    func waitFor(_ count: Int) {
        for _ in 0..<count { delivered.wait() }
    }
}

extension PreparedResponse {
    /// The body as it goes on the wire: read from its file, when it has one.
    var sentBody: [UInt8] {
        guard let file = bodyFile else { return body }
        var bytes = [UInt8](repeating: 0, count: file.count)
        let read = bytes.withUnsafeMutableBytes { file.read(into: $0, at: 0) }
        return Array(bytes[..<(read ?? 0)])
    }
}
