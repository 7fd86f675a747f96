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
        let t = min(max(parameter(atX: x), 0), 1)
        return t * t * (3 - 2 * t)  // 3(1−t)t²·1 + t³
    }

    /// The curve's parameter where its x is `x`: Newton's method from `x`,
    /// which converges in a few steps on this curve; halving where its
    /// slope is too flat for that (as WebKit's UnitBezier does).
    private static func parameter(atX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = curveX(t) - x
            if abs(error) < 1e-12 { return t }
            let slope = slopeX(t)
            guard abs(slope) > 1e-6 else { break }
            t -= error / slope
        }
        var (low, high) = (0.0, 1.0)
        t = x
        while high - low > 1e-12 {
            if curveX(t) < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    /// The curve's x at parameter `t`.
    private static func curveX(_ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t
    }

    /// dx/dt at `t`.
    private static func slopeX(_ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
    }
}
