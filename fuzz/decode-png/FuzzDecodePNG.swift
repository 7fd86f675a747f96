// libFuzzer harness for the PNG decoder (libpng behind CImageCodecs), with
// the checks every decoder harness makes (fuzz/decoders.swift). Input: a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodePNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkDecoders(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
