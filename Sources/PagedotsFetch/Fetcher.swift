import CCurl
import Dispatch
import Locking

/// A careful, bounded HTTP(S) GET client on libcurl: one per process (or per
/// policy), shared by every caller.
///
/// **What it guards.** Only `http` and `https`, never through a proxy (the
/// environment's `http_proxy` is ignored), with TLS verified against the
/// system's CA bundle, no cookies, no credentials (no `.netrc`, and a URL
/// with user information is refused), no `Accept-Encoding` and nothing
/// decompressed. Every address a connection is about to use is put to
/// `FetchPolicy.allowsAddress` before `connect`, and the address connected to
/// is put to it again before each request is sent (also on a reused
/// connection), so a DNS answer that changes cannot reach what the policy
/// refuses. Redirects are followed here, not by libcurl: each target goes to
/// `FetchPolicy.followsRedirect` first and is never asked if refused; at most
/// `maxRedirects`. Bodies are counted as they arrive and cut off past
/// `maxBytes` (a `Content-Length` over it stops the fetch before the body),
/// the header block is bounded, each hop connects within `connectTimeout`, and
/// the whole fetch, time queued and every hop included, ends by `totalTimeout`.
///
/// **Concurrency.** At most `maxConnectionsPerHost` fetches at once to one
/// host name and `maxConcurrent` in all; the others wait first come, first
/// served (a full host does not hold back the others), and their wait comes
/// out of their time: a fetch that waited 9 s of a 10 s budget has 1 s left,
/// and one still waiting at its deadline ends as `timeout` without being
/// made. A request equal to one in flight (same URL, same validators) is not
/// made again: its completion gets the same outcome (single flight).
///
/// **Isolation: libcurl's multi interface on a thread of its own**, rather
/// than a pool of threads each running `curl_easy_perform`. A fetch in flight
/// costs a socket and a transfer's buffers, not a thread: sixteen sources that
/// never answer occupy sixteen transfers until their deadline and nothing
/// else, where a pool would have all its threads blocked (and every other
/// fetch queued behind them) or need a thread per fetch. The thread never
/// blocks on one source: names are resolved by libcurl's threaded resolver,
/// sockets are non-blocking, and `curl_multi_poll` wakes for any socket, any
/// timer, or a new request (`curl_multi_wakeup`). No caller ever waits on a
/// fetch except through `fetchAll`; completions, `allowsAddress` and
/// `followsRedirect` run on the fetcher's thread and must be quick (hand work
/// off). Connections are kept alive and reused between fetches of this
/// fetcher: they were opened under its one policy, and the address is checked
/// again on every reuse; another policy needs another `Fetcher`, with its own
/// connections.
public final class Fetcher: Sendable {
    private let mailbox: FetchMailbox

    /// A fetcher with its thread started; throws for limits or a policy it cannot
    /// use, or when libcurl or the system refuses what it needs.
    public init(limits: FetchLimits = FetchLimits(), policy: FetchPolicy) throws(FetcherError) {
        if let problem = policy.problem ?? limits.problem {
            throw FetcherError(message: problem)
        }
        guard curlIsInitialised else {
            throw FetcherError(message: "curl_global_init failed")
        }
        guard let mailbox = FetchMailbox(maxIdleConnections: limits.maxConcurrent) else {
            throw FetcherError(message: "libcurl could not make a multi handle")
        }
        let started = DetachedThread.start {
            FetchLoop(mailbox: mailbox, policy: policy, limits: limits).run()
        }
        guard started else { throw FetcherError(message: "no thread could be started for the fetcher") }
        self.mailbox = mailbox
    }

    /// Stops the thread: fetches still in flight end as `other` ("the fetcher stopped").
    deinit {
        mailbox.stop()
    }

    /// Fetches `request`, at once or when the limits allow, and calls
    /// `completion` once with the outcome, on the fetcher's thread (it must be quick).
    public func fetch(_ request: FetchRequest, completion: @escaping @Sendable (FetchOutcome) -> Void) {
        let submission = FetchMailbox.Submission(request: request, completion: completion, submitted: .now)
        if !mailbox.post(submission) {
            submission.complete(.failure(FetchFailure(.other, message: "the fetcher stopped")), now: .now)
        }
    }

    /// Fetches every request in parallel (within the limits) and returns their
    /// outcomes in order, blocking the calling thread until the last one: for the
    /// command line. Never call it from a completion (that is the fetcher's thread).
    public func fetchAll(_ requests: [FetchRequest]) -> [FetchOutcome] {
        let done = DispatchGroup()
        let outcomes = Locked([FetchOutcome?](repeating: nil, count: requests.count))
        for (index, request) in requests.enumerated() {
            done.enter()
            fetch(request) { outcome in
                outcomes.withLock { $0[index] = outcome }
                done.leave()
            }
        }
        done.wait()
        return outcomes.withLock { $0.compactMap { $0 } }
    }
}

/// Limits or a policy a `Fetcher` cannot use, or a libcurl that refuses to start.
public struct FetcherError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// `curl_global_init`, run once: a global is initialised lazily, once, thread-safely.
private let curlIsInitialised = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

extension FetchLimits {
    /// Why these limits cannot be used, or nil.
    var problem: String? {
        maxConnectionsPerHost >= 1 && maxConcurrent >= 1 ? nil : "the limits must be at least 1"
    }
}
