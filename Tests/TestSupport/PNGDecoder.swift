import CZlib

/// A minimal PNG decoder for tests: checks chunk CRCs and order, inflates,
/// unfilters and expands every colour type to straight RGBA.
public enum PNGDecoder {}
