import Dispatch
import Foundation
import Locking
import PagedotsFetch

/// A policy for tests on loopback: every address allowed unless `allowsAddress`
/// says otherwise, every redirect followed as it is unless `followsRedirect` says
/// otherwise, and a total time long enough that only a test of time sees it.
func testPolicy(
    maxBytes: Int = 1 << 20,
    totalTimeout: Duration = .seconds(20),
    allowsAddress: @escaping @Sendable (FetchAddress) -> Bool = { _ in true },
    followsRedirect: @escaping @Sendable (String) -> Result<String, FetchRefusal> = { .success($0) }
) -> FetchPolicy {
    FetchPolicy(
        maxBytes: maxBytes, totalTimeout: totalTimeout, userAgent: "pagedots/test", accept: "image/png, image/jpeg",
        allowsAddress: allowsAddress, followsRedirect: followsRedirect
    )
}

/// Fetches `request` with a new fetcher and waits for its outcome (nil after a
/// minute: a bound on a broken fetcher, not a timing).
func fetchOnce(_ request: FetchRequest, policy: FetchPolicy = testPolicy()) throws -> FetchOutcome? {
    let fetcher = try Fetcher(policy: policy)
    let pending = PendingFetches()
    pending.start(request, on: fetcher, as: 0)
    return withExtendedLifetime(fetcher) { pending.waitForAll()?[0] }
}

/// Fetches `url` with a new fetcher and waits for its outcome.
func fetchOnce(_ url: String, policy: FetchPolicy = testPolicy()) throws -> FetchOutcome? {
    try fetchOnce(FetchRequest(url: url), policy: policy)
}

/// Fetches started without waiting, whose outcomes a test collects later.
final class PendingFetches: Sendable {
    private let outcomes = Locked([Int: FetchOutcome]())
    private let group = DispatchGroup()

    /// Starts `request` on `fetcher`; its outcome will be under `index`.
    func start(_ request: FetchRequest, on fetcher: Fetcher, as index: Int) {
        group.enter()
        fetcher.fetch(request) { [outcomes, group] outcome in
            outcomes.withLock { $0[index] = outcome }
            group.leave()
        }
    }

    /// Waits for every outcome (at most `limitSeconds`, a bound on a broken test); nil if some are missing.
    func waitForAll(limitSeconds: Double = 60) -> [Int: FetchOutcome]? {
        guard group.wait(timeout: .now() + limitSeconds) == .success else { return nil }
        return outcomes.withLock { $0 }
    }
}

/// Addresses a policy was asked about.
final class AddressLog: Sendable {
    private let addresses = Locked([FetchAddress]())

    /// Records `address` and refuses it.
    func refuse(_ address: FetchAddress) -> Bool {
        addresses.withLock { $0.append(address) }
        return false
    }

    var asked: [FetchAddress] { addresses.withLock { $0 } }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
