// swift-tools-version:6.0
import PackageDescription

// The way a request travels is the target list, top to bottom:
// system-library shims → PagedotsCore (parameters → spec → drawing, pure) →
// PagedotsRender (drawing → pixels with Cairo, or SVG) → PagedotsPNG (pixels → PNG) and
// PagedotsGIF (frames → animated GIF), all four on PagedotsPixels (rectangles, diffs, budgets) →
// HTTPServer (generic HTTP/1.1 over epoll) → PagedotsService (routes, cache, metrics) →
// pagedots (the executable). Uploads come in through MultipartFormData (bodies → parts) and
// PagedotsDecode (PNG, JPEG, GIF, WebP, HEIC, AVIF → pixels, with libpng and libjpeg-turbo behind
// CImageCodecs, giflib, libwebp and libheif). PagedotsFetch (URLs → bytes, on libcurl behind
// CCurl) fetches slides for the service.
let package = Package(
    name: "pagedots",
    products: [
        .executable(name: "pagedots", targets: ["pagedots"]),
    ],
    targets: [
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Pango by a .pc file of our own (see it for why), named by its path.
        .systemLibrary(
            name: "CPango", pkgConfig: Context.packageDirectory + "/Sources/CPango/pangocairo.pc",
            providers: [.apt(["libpango1.0-dev"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // GLib (Pango's own base) for SHA-256 and HMAC: OpenSSL's libcrypto kept 3.4 MiB resident for them.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CLinux"),
        // giflib ships no pkg-config file on every distribution: the header is in /usr/include.
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        // libcurl, with typed wrappers for its variadic setopt and getinfo (Swift cannot call variadic C).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // libpng and libjpeg-turbo, each behind a C wrapper: their errors longjmp, which must not cross Swift frames.
        // With them, libheif's HEVC (libde265) and AV1 (dav1d) decoders, bounded: see CImageCodecs.h.
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("heif"), .linkedLibrary("de265"), .linkedLibrary("dav1d")]
        ),
        // libwebp with libwebpdemux (an animation's first frame), and libheif (HEIC and AVIF): called from Swift.
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", providers: [.apt(["libheif-dev"])]),

        // A lock ThreadSanitizer can see (a pthread mutex), for everything threads share; detached threads.
        .target(name: "Locking"),
        .target(name: "PagedotsCore", dependencies: ["PagedotsPixels"]),
        // What the renderer and the encoders share: pixel rectangles, the search for what changed
        // between two frames, cache keys, and the memory budget of their caches of repeated work.
        .target(name: "PagedotsPixels"),
        .target(name: "PagedotsRender", dependencies: ["PagedotsCore", "PagedotsPixels", "CCairo", "CPango"]),
        .target(name: "PagedotsPNG", dependencies: ["PagedotsPixels", "CZlib"]),
        .target(name: "PagedotsGIF", dependencies: ["PagedotsPixels", "CImageQuant"]),
        .target(name: "PagedotsDecode", dependencies: ["CImageCodecs", "CGif", "CWebP", "CHeif"]),
        .target(name: "MultipartFormData"),
        // A bounded HTTP(S) GET client on libcurl's multi interface: address checks on every
        // connection, redirects asked of the caller, size and time limits, single flight.
        .target(name: "PagedotsFetch", dependencies: ["CCurl", "Locking"]),
        .target(name: "HTTPServer", dependencies: ["Locking", "CLinux"]),
        .target(
            name: "PagedotsService",
            dependencies: [
                "PagedotsCore", "PagedotsPixels", "PagedotsRender", "PagedotsPNG", "PagedotsGIF", "PagedotsDecode", "MultipartFormData",
                "PagedotsFetch", "HTTPServer", "Locking", "CGLib", "CZlib", "CLinux",
            ]
        ),
        .executableTarget(name: "pagedots", dependencies: ["PagedotsService"]),
        // Drives the scripts under bench/: times the pipeline's steps in-process.
        .executableTarget(name: "pagedots-bench", dependencies: ["PagedotsService", "PagedotsPixels", "PagedotsGIF", "CCairo"]),

        // Test-only helpers shared by the test targets (a PNG decoder, a GIF reader on giflib, image
        // comparison, the real binary as a server, an HTTP client, a scripted loopback origin).
        .target(name: "TestSupport", dependencies: ["CZlib", "CGif"], path: "Tests/TestSupport"),
        .testTarget(name: "PagedotsCoreTests", dependencies: ["PagedotsCore"]),
        .testTarget(
            name: "PagedotsRenderTests",
            dependencies: ["PagedotsRender", "PagedotsPixels", "PagedotsPNG", "TestSupport"],
            resources: [.copy("Goldens")]
        ),
        .testTarget(name: "PagedotsPixelsTests", dependencies: ["PagedotsPixels"]),
        .testTarget(name: "PagedotsPNGTests", dependencies: ["PagedotsPNG", "PagedotsPixels", "TestSupport"]),
        // giflib's own decoder (CGif) reads the files back: an independent check of the encoder.
        .testTarget(name: "PagedotsGIFTests", dependencies: ["PagedotsGIF", "PagedotsPixels", "TestSupport", "CGif"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Locking", "TestSupport"]),
        .testTarget(name: "MultipartFormDataTests", dependencies: ["MultipartFormData"]),
        .testTarget(name: "PagedotsFetchTests", dependencies: ["PagedotsFetch", "Locking", "TestSupport"]),
        .testTarget(name: "PagedotsDecodeTests", dependencies: ["PagedotsDecode", "TestSupport"]),
        .testTarget(name: "PagedotsServiceTests", dependencies: ["PagedotsService", "Locking", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
