@testable import HTTPServer
@testable import PagedotsService
import Testing

private func imageRequest(_ query: String) -> HTTPRequest {
    HTTPRequest(method: .get, version: .http1_1, path: "/indicator", query: query, headers: [HTTPHeaderField("Host", "test")])
}

/// A bounded render queue (docs/operating.md). The render
/// thread is held by a job the test controls, so "the renderer is saturated"
/// is a fact, not a race.
@Suite struct HostileRenderQueueTests {
    @Test("With the render thread busy and the queue full, a new miss is 503 at once; hits and joins are still served")
    func fullQueueRefusesMissesAndServesHits() {
        let lanes = RenderLanes(threads: 1, stillQueueLimit: 1, animationQueueLimit: 1)
        let service = PagedotsService(configuration: ServiceConfiguration(), renderLanes: lanes)
        let answers = RecordedAnswers()

        // An image in the cache before the renderer is saturated.
        service.handle(imageRequest("pages=3"), responder: answers.responder("cached"))
        answers.waitFor(1)
        #expect(answers.statuses("cached") == [200])

        // Hold the only still render thread.
        let release = lanes.stills.holdThread()

        // One miss fills the queue (limit 1); a second request for it joins the render.
        service.handle(imageRequest("pages=4"), responder: answers.responder("queued"))
        service.handle(imageRequest("pages=4&utm_source=mail"), responder: answers.responder("joined"))
        #expect(lanes.queueDepth == 1)
        #expect(answers.statuses("queued").isEmpty && answers.statuses("joined").isEmpty)

        // Another miss is refused before `handle` returns: no queue grows.
        service.handle(imageRequest("pages=5"), responder: answers.responder("refused"))
        #expect(answers.statuses("refused") == [503])
        #expect(answers.head("refused").contains("\r\nRetry-After: 1\r\n"))
        #expect(answers.head("refused").contains("\r\nCache-Control: no-store\r\n"))
        #expect(lanes.queueDepth == 1)

        // A hit is answered at once while the renderer is saturated.
        service.handle(imageRequest("current=0&pages=3"), responder: answers.responder("hit"))
        #expect(answers.statuses("hit") == [200])

        // Released, the queued render answers both of its requests.
        release.signal()
        answers.waitFor(4)
        #expect(answers.statuses("queued") == [200])
        #expect(answers.statuses("joined") == [200])

        // The refused image was not half-registered: asked again, it is drawn.
        service.handle(imageRequest("pages=5"), responder: answers.responder("refused"))
        answers.waitFor(1)
        #expect(answers.statuses("refused") == [503, 200])
    }

    @Test("With the animation queue full, an animation miss is 503 at once while a still miss is still drawn")
    func fullAnimationQueueLeavesStills() {
        let lanes = RenderLanes(threads: 1, stillQueueLimit: 1, animationQueueLimit: 1)
        let service = PagedotsService(configuration: ServiceConfiguration(), renderLanes: lanes)
        let answers = RecordedAnswers()
        let release = lanes.animations.holdThread()

        // One animation fills its queue (limit 1); another, GIF or APNG, is refused.
        service.handle(imageRequest("pages=3&format=gif"), responder: answers.responder("animation"))
        service.handle(imageRequest("pages=4&format=apng"), responder: answers.responder("refused"))
        service.handle(imageRequest("pages=4&format=gif"), responder: answers.responder("refused"))
        answers.waitFor(2)  // both refusals were delivered before `handle` returned
        #expect(answers.statuses("refused") == [503, 503])
        #expect(answers.head("refused").contains("\r\nRetry-After: 1\r\n"))
        #expect(lanes.queueDepth == 1)

        // A still miss has threads of its own: it is drawn while the animations wait.
        service.handle(imageRequest("pages=4"), responder: answers.responder("still"))
        answers.waitFor(1)
        #expect(answers.statuses("still") == [200])
        #expect(answers.statuses("animation").isEmpty)

        release.signal()
        answers.waitFor(1)
        #expect(answers.statuses("animation") == [200])
    }
}
