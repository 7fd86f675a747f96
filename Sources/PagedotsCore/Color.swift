/// A colour with straight (not premultiplied) 8-bit channels.
public struct RGBA: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let transparent = RGBA(red: 0, green: 0, blue: 0, alpha: 0)

    /// Opaque white: the default `matte`.
    public static let white = RGBA(red: 255, green: 255, blue: 255)

    /// The default `color`: iOS system blue.
    public static let systemBlue = RGBA(red: 0x00, green: 0x7A, blue: 0xFF)

    /// iOS system blue in dark mode.
    public static let systemBlueDark = RGBA(red: 0x0A, green: 0x84, blue: 0xFF)

    /// The default dark-mode colour for this `color`: itself, except that
    /// system blue becomes its dark-mode shade (with the same alpha).
    public var inDarkMode: RGBA {
        guard red == Self.systemBlue.red, green == Self.systemBlue.green, blue == Self.systemBlue.blue else { return self }
        var dark = Self.systemBlueDark
        dark.alpha = alpha
        return dark
    }

    /// This colour with its alpha multiplied by `factor`, rounded half up
    /// (opaque × 0.3 → 77), as docs/parameters.md defines the default `inactive`.
    public func fading(to factor: Double) -> RGBA {
        var faded = self
        faded.alpha = UInt8(min(255, (Double(alpha) * factor + 0.5).rounded(.down)))
        return faded
    }

    /// The colour `fraction` (0…1) of the way from this one to `other`,
    /// interpolated premultiplied (so a colour fading to `transparent` keeps
    /// its hue), each channel rounded half up; exactly this colour at 0 and
    /// `other` at 1.
    public func interpolated(to other: RGBA, by fraction: Double) -> RGBA {
        guard fraction > 0 else { return self }
        guard fraction < 1 else { return other }
        let (from, to) = (Double(alpha) * (1 - fraction), Double(other.alpha) * fraction)
        let mixedAlpha = from + to
        let roundedAlpha = (mixedAlpha + 0.5).rounded(.down)
        guard roundedAlpha > 0 else { return .transparent }
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(min(255, ((Double(a) * from + Double(b) * to) / mixedAlpha + 0.5).rounded(.down)))
        }
        return RGBA(
            red: channel(red, other.red), green: channel(green, other.green), blue: channel(blue, other.blue),
            alpha: UInt8(min(255, roundedAlpha))
        )
    }

    /// `rrggbbaa` in lowercase hex: the canonical form used in cache keys.
    public var hex: String {
        // Written straight into a small string: this runs for every image request's cache key.
        String(unsafeUninitializedCapacity: 8) { buffer in
            for (offset, byte) in [red, green, blue, alpha].enumerated() {
                buffer[2 * offset] = Self.hexDigit(byte >> 4)
                buffer[2 * offset + 1] = Self.hexDigit(byte & 15)
            }
            return 8
        }
    }

    /// The lowercase ASCII hex digit for a nibble.
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
