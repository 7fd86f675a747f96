/// The render threads, in two lanes (docs/operating.md, "The render queue"):
/// still images (PNG, SVG) and animations (GIF, APNG), each a `RenderPool`
/// with threads and a bounded queue of its own.
///
/// An animation costs as much as tens to thousands of still images; so that
/// a flood of them cannot starve the stills:
///
/// - a still never waits in a queue behind an animation, nor for a thread
///   that draws one: the stills have `threads` threads to themselves;
/// - the animations have `threads − 1` (at least one), each running
///   `animationNiceness` nice steps below the process, so that the kernel
///   gives the CPU to the still threads and the event loops first, and to
///   animations what is left: on cores they share, an animation slows a
///   still down little, however many of them wait;
/// - a flood of animations fills only its own queue; beyond it, `submit`
///   refuses (`503`) while stills are still taken.
///
/// The animation threads give the memory their jobs freed back to the
/// system between jobs (`RenderPool.returnFreedMemory`): an animation's
/// scratch would otherwise stay resident beside the cache.
final class RenderLanes: Sendable {
    /// Nice steps the animation threads run below the process: a nice-0
    /// thread weighs about ten times as much as a nice-10 one.
    static let animationNiceness: Int32 = 10

    /// Which lane a job goes to.
    enum Lane: Sendable {
        /// A still image (PNG, SVG).
        case still
        /// An animation (GIF, APNG).
        case animation

        /// The cache budget a job of this lane keeps free while it runs
        /// (`ImageCache.reserving`), for the memory it works in. An
        /// animation's: its frames, its caches of repeated work (at most
        /// 3.5 MiB, `CacheBudget.defaultAllowances`) and its file; the
        /// largest of bench/memory's animation flood (scale 4, 28–38 pages)
        /// each add 5.5–7 MiB to the process's resident size while drawn.
        /// A still's is a few pages, not reserved.
        var scratchBytes: Int {
            switch self {
            case .still: 0
            case .animation: 6 << 20
            }
        }
    }

    let stills: RenderPool
    let animations: RenderPool

    /// `threads` threads for stills (at least one) with at most
    /// `stillQueueLimit` waiting, and `threads − 1` (at least one) for
    /// animations with at most `animationQueueLimit` waiting.
    init(threads: Int, stillQueueLimit: Int, animationQueueLimit: Int) {
        stills = RenderPool(threads: threads, queueLimit: stillQueueLimit)
        animations = RenderPool(
            threads: max(1, threads - 1), queueLimit: animationQueueLimit, niceness: Self.animationNiceness, trimsHeap: true
        )
    }

    /// Jobs waiting for a thread now, in both lanes.
    var queueDepth: Int { stills.queueDepth + animations.queueDepth }

    /// Queues a job in `lane`; false when that lane's queue is full.
    func submit(_ lane: Lane, _ job: @escaping RenderPool.Job) -> Bool {
        switch lane {
        case .still: stills.submit(job)
        case .animation: animations.submit(job)
        }
    }
}
