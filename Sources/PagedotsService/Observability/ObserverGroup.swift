import HTTPServer

/// Lets every observer of a list see each event: the service's metrics and its logs.
final class ObserverGroup: HTTPServerObserver {
    private let observers: [any HTTPServerObserver]
    let wantsAccessRecords: Bool

    init(_ observers: [any HTTPServerObserver]) {
        self.observers = observers
        wantsAccessRecords = observers.contains { $0.wantsAccessRecords }
    }

    func connectionOpened() { observers.forEach { $0.connectionOpened() } }

    func connectionClosed() { observers.forEach { $0.connectionClosed() } }

    func responseSent(label: Int, status: Int, seconds: Double) {
        observers.forEach { $0.responseSent(label: label, status: status, seconds: seconds) }
    }

    func accessRecord(_ record: HTTPAccessRecord) { observers.forEach { $0.accessRecord(record) } }
}
