/// UIKit's default animation curve, `UIView.AnimationCurve.easeInOut`: the
/// cubic Bézier from (0, 0) to (1, 1) with control points (0.42, 0) and
/// (0.58, 1), read as y of x.
enum Easing {
    /// The control points' x; their y are 0 and 1.
    private static let (x1, x2) = (0.42, 0.58)

    /// The eased value of `x` (0…1): slow at both ends, 0.5 at 0.5.
    static func easeInOut(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        // The curve's x grows with its parameter t: find t by halving (52
        // halvings reach a double's precision), then read y at t.
        var (low, high) = (0.0, 1.0)
        for _ in 0..<52 {
            let t = (low + high) / 2
            if curveX(t) < x { low = t } else { high = t }
        }
        let t = (low + high) / 2
        return t * t * (3 - 2 * t)  // 3(1−t)t²·1 + t³
    }

    /// The curve's x at parameter `t`.
    private static func curveX(_ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t
    }
}
