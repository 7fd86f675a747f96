#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed, and the `errno` it set.
struct SystemError: Error, CustomStringConvertible {
    var call: StaticString
    var code: Int32

    /// `bind: Address already in use`.
    var description: String { "\(call): \(reason)" }

    /// `Address already in use`.
    var reason: String { String(cString: strerror(code)) }
}

/// Runs `call`, a system call that returns -1 and sets `errno` when it fails:
/// retries it on `EINTR`, returns nil when it would block (`EAGAIN`), throws
/// any other failure. (`close` must not go through here: it is never retried.)
@inline(__always)
func systemCall<Result: FixedWidthInteger>(
    _ name: StaticString, _ call: () -> Result
) throws(SystemError) -> Result? {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        throw SystemError(call: name, code: code)
    }
}

/// Closes a descriptor once. A failed `close` is not retried: on Linux the
/// descriptor is released even when `close` reports an error.
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
