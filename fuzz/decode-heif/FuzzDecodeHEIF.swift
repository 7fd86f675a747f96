// libFuzzer harness for the HEIC and AVIF decoder (libheif, with libde265
// and dav1d), with the checks every decoder harness makes
// (fuzz/decoders.swift). Input: a file; the seeds hold both kinds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkDecoders(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
