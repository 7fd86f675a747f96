import CCurl

/// The fetcher's thread: takes submissions, starts hops as the limits allow,
/// drives libcurl's multi interface, follows redirects and hands outcomes to
/// the waiters. Everything here belongs to that one thread.
final class FetchLoop {
    private let mailbox: FetchMailbox
    private let policy: FetchPolicy
    /// Each flight's waiters are the submissions that asked for it, the first one first.
    private var scheduler: FetchScheduler<FetchMailbox.Submission>
    /// The running hops, by easy handle, with their flight's id.
    private var transfers: [UnsafeMutableRawPointer: (flight: Int, transfer: CurlTransfer)] = [:]

    /// The longest wait in `curl_multi_poll` when nothing is queued (libcurl
    /// shortens it for its own timers; a submission wakes it at once).
    private static let idlePoll: Duration = .seconds(60)

    init(mailbox: FetchMailbox, policy: FetchPolicy, limits: FetchLimits) {
        self.mailbox = mailbox
        self.policy = policy
        scheduler = FetchScheduler(limits: limits)
    }

    /// Runs until the mailbox is stopped, then ends every fetch left and cleans up.
    func run() {
        while let submissions = mailbox.take() {
            var now = ContinuousClock.now
            for submission in submissions {
                admit(submission)
            }
            for flight in scheduler.takeExpired(now: now) {
                deliver(flight, .failure(.timedOut(flight.host, budget: policy.totalTimeout, "waiting for a free slot")), now: now)
            }
            for id in scheduler.startNext() {
                startHop(of: id, now: now)
            }
            var running: Int32 = 0
            _ = curl_multi_perform(mailbox.multi, &running)
            endFinishedHops()
            // A hop that ended may have freed a slot or queued a redirect: start it now.
            guard !scheduler.canStart else { continue }
            now = .now
            let wait = scheduler.earliestQueuedDeadline.map { min($0 - now, Self.idlePoll) } ?? Self.idlePoll
            _ = curl_multi_poll(mailbox.multi, nil, 0, Int32(max(wait, .zero).millisecondsRoundedUp), nil)
        }
        shutDown()
    }

    /// Joins an equal flight, or queues a new one; a request that cannot be made ends here.
    private func admit(_ submission: FetchMailbox.Submission) {
        let request = submission.request
        guard !scheduler.join(request, waiter: submission) else { return }
        let target: FetchTarget
        do throws(FetchFailure) {
            target = try FetchTarget(request.url)
            guard [request.ifNoneMatch, request.ifModifiedSince].allSatisfy({ $0.map(isHeaderValue) ?? true }) else {
                throw FetchFailure(.invalidRequest, message: "\(target.host): a validator has a line break or NUL in it")
            }
        } catch {
            submission.complete(.failure(error), now: .now)
            return
        }
        _ = scheduler.submit(request, host: target.host, waiter: submission, submitted: submission.submitted, budget: policy.totalTimeout)
    }

    /// Starts the next hop of a flight just given a slot, with what is left of its time.
    private func startHop(of id: Int, now: ContinuousClock.Instant) {
        guard let flight = scheduler.flights[id], let timeLeft = scheduler.timeLeft(id, now: now) else { return }
        guard timeLeft > .zero else {
            end(id, .failure(.timedOut(flight.host, budget: policy.totalTimeout, "before a redirect's request")))
            return
        }
        do throws(FetchFailure) {
            let transfer = try CurlTransfer.make(
                url: flight.url, host: flight.host, request: flight.request, policy: policy, timeLeft: timeLeft
            )
            guard curl_multi_add_handle(mailbox.multi, transfer.easy) == CURLM_OK else {
                throw FetchFailure(.other, message: "\(flight.host): libcurl did not take the transfer")
            }
            transfers[transfer.easy] = (id, transfer)
        } catch {
            end(id, .failure(error))
        }
    }

    /// Ends the hops libcurl reports done.
    private func endFinishedHops() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(mailbox.multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let (id, transfer) = transfers.removeValue(forKey: easy) else { continue }
            _ = curl_multi_remove_handle(mailbox.multi, easy)
            hopEnded(id, transfer: transfer, code: code)
        }
    }

    /// Ends the flight with the hop's response or failure, or follows its redirect.
    private func hopEnded(_ id: Int, transfer: CurlTransfer, code: CURLcode) {
        scheduler.addReceived(transfer.bodyBytesReceived, to: id)
        guard let flight = scheduler.flights[id] else { return }
        switch transfer.result(of: code) {
        case .response(let response):
            end(id, .success(response))
        case .failure(let failure):
            end(id, .failure(failure))
        case .redirect(let location):
            guard flight.redirects < policy.maxRedirects else {
                end(id, .failure(FetchFailure(.tooManyRedirects, message: "\(flight.host): more than \(policy.maxRedirects) redirects")))
                return
            }
            switch policy.followsRedirect(location) {
            case .failure(let refusal):
                end(id, .failure(FetchFailure(.redirectRefused(refusal), message: "\(flight.host): redirect refused: \(refusal.reason)")))
            case .success(let next):
                do throws(FetchFailure) {
                    scheduler.redirect(id, to: next, host: try FetchTarget(next).host)
                } catch {
                    end(id, .failure(error))
                }
            }
        }
    }

    /// Removes a flight and hands its outcome to every waiter.
    private func end(_ id: Int, _ result: Result<FetchResponse, FetchFailure>) {
        guard let flight = scheduler.finish(id) else { return }
        deliver(flight, result, now: .now)
    }

    /// Hands `result` to every waiter of `flight`, the first as the one that made the fetch.
    private func deliver(
        _ flight: FetchScheduler<FetchMailbox.Submission>.Flight, _ result: Result<FetchResponse, FetchFailure>,
        now: ContinuousClock.Instant
    ) {
        for (index, waiter) in flight.waiters.enumerated() {
            waiter.complete(result, redirects: flight.redirects, bytesReceived: flight.bytesReceived, joined: index > 0, now: now)
        }
    }

    /// Stops every transfer, ends every fetch with `other`, and cleans up the multi handle.
    private func shutDown() {
        for (easy, _) in transfers {
            _ = curl_multi_remove_handle(mailbox.multi, easy)
        }
        transfers = [:]
        let now = ContinuousClock.now
        for flight in scheduler.finishAll() {
            deliver(flight, .failure(FetchFailure(.other, message: "\(flight.host): the fetcher stopped")), now: now)
        }
        for submission in mailbox.close() {
            submission.complete(.failure(FetchFailure(.other, message: "the fetcher stopped")), now: now)
        }
    }
}
