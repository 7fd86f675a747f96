import CCurl
import Locking

/// What callers hand the fetcher's thread: submissions under a lock, and the
/// wake-up that tells the thread to look.
///
/// It owns the multi handle: the fetcher's thread drives it, and other threads
/// only call `curl_multi_wakeup` on it, which libcurl allows from any thread.
/// The wake-ups are made under the lock and the handle is cleaned up under it,
/// so none can reach a handle already gone.
final class FetchMailbox: @unchecked Sendable {
    /// A call to `fetch`.
    struct Submission: Sendable {
        let request: FetchRequest
        let completion: @Sendable (FetchOutcome) -> Void
        /// When `fetch` was called: the fetch's time counts from here.
        let submitted: ContinuousClock.Instant

        /// Calls the completion with `result` and what it cost, the time counted from this submission.
        func complete(
            _ result: Result<FetchResponse, FetchFailure>, redirects: Int = 0, bytesReceived: Int = 0, joined: Bool = false,
            now: ContinuousClock.Instant
        ) {
            completion(FetchOutcome(
                result: result, redirects: redirects, elapsedSeconds: (now - submitted).inSeconds, bytesReceived: bytesReceived,
                joined: joined
            ))
        }
    }

    private struct State {
        var submissions: [Submission] = []
        var stopping = false
        var closed = false
    }

    /// The multi handle (a `CURLM *`).
    let multi: UnsafeMutableRawPointer
    private let state = Locked(State())

    /// A mailbox with a new multi handle that keeps at most `maxIdleConnections`
    /// connections open between fetches; nil if libcurl cannot make one.
    init?(maxIdleConnections: Int) {
        guard let multi = curl_multi_init() else { return nil }
        guard pd_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxIdleConnections) == CURLM_OK else {
            curl_multi_cleanup(multi)
            return nil
        }
        self.multi = multi
    }

    /// Hands a submission to the thread (or, once it has stopped, back to the caller: false).
    func post(_ submission: Submission) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.submissions.append(submission)
            _ = curl_multi_wakeup(multi)
            return true
        }
    }

    /// Tells the thread to stop.
    func stop() {
        state.withLock { state in
            guard !state.closed else { return }
            state.stopping = true
            _ = curl_multi_wakeup(multi)
        }
    }

    /// The submissions posted since the last call; nil once `stop` was called.
    func take() -> [Submission]? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            defer { state.submissions = [] }
            return state.submissions
        }
    }

    /// Cleans up the multi handle (whose transfers must have been removed) and
    /// returns what was posted and not taken.
    func close() -> [Submission] {
        state.withLock { state in
            state.closed = true
            curl_multi_cleanup(multi)
            defer { state.submissions = [] }
            return state.submissions
        }
    }
}
