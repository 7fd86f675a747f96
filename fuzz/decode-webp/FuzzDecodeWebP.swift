// libFuzzer harness for the WebP decoder (libwebp, with libwebpdemux for an
// animation's first frame, its scaled and box-reduced decodes included),
// with the checks every decoder harness makes (fuzz/decoders.swift). Input: a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeWebP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkDecoders(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
