// libFuzzer harness for the JPEG decoder (libjpeg-turbo behind CImageCodecs,
// EXIF orientation and reduced decoding included), with the checks every
// decoder harness makes (fuzz/decoders.swift). Input: a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkDecoders(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
