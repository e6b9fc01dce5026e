/// Audio and video signatures for `ContentSniffer`.
extension ContentSniffer {
    static func audioOrVideo(_ data: ByteView) -> String? {
        if data.matches(Array("ftyp".utf8), at: 4) { return isoMediaType(data) }
        // EBML header: WebM or Matroska, named by the DocType element.
        if data.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            let header = data.bytes.prefix(64)
            if containsSequence(header, Array("webm".utf8)) { return "video/webm" }
            if containsSequence(header, Array("matroska".utf8)) { return "video/x-matroska" }
            return nil
        }
        if data.starts(with: Array("OggS".utf8)) && data.u8(4) == 0 {
            let page = data.bytes.prefix(64)
            if containsSequence(page, Array("theora".utf8)) { return "video/ogg" }
            return "audio/ogg"
        }
        if data.starts(with: Array("RIFF".utf8)) {
            if data.matches(Array("WAVE".utf8), at: 8) { return "audio/wav" }
            if data.matches(Array("AVI ".utf8), at: 8) { return "video/x-msvideo" }
            return nil
        }
        if data.starts(with: Array("ID3".utf8)) { return "audio/mpeg" }
        if data.starts(with: Array("fLaC".utf8)) { return "audio/flac" }
        if data.starts(with: Array("#!AMR".utf8)) { return "audio/amr" }
        if data.starts(with: [0x46, 0x4F, 0x52, 0x4D]), data.matches(Array("AIFF".utf8), at: 8) { return "audio/aiff" }
        return frameSyncAudio(data)
    }

    /// MP4-family files, by their `ftyp` brands (images were taken earlier).
    static func isoMediaType(_ data: ByteView) -> String? {
        let brands = ImageProbe.brands(data)
        guard let major = brands.first else { return nil }
        if major == "qt  " { return "video/quicktime" }
        if ["M4A ", "M4B ", "M4P "].contains(major) { return "audio/mp4" }
        if major.hasPrefix("3g") { return "video/3gpp" }
        let videoBrands: Set<String> = ["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "dash", "mmp4", "MSNV", "f4v "]
        return brands.contains(where: videoBrands.contains) || major.hasPrefix("mp4") ? "video/mp4" : nil
    }

    /// MPEG audio without an ID3 tag: a frame header (11 sync bits, a valid
    /// layer and bitrate) for MP3, or an ADTS header for AAC.
    static func frameSyncAudio(_ data: ByteView) -> String? {
        guard data.u8(0) == 0xFF, let second = data.u8(1), second & 0xE0 == 0xE0, let third = data.u8(2) else { return nil }
        let layer = (second >> 1) & 0x03
        if layer == 0 { return second & 0xF6 == 0xF0 ? "audio/aac" : nil }
        let version = (second >> 3) & 0x03
        let bitrate = third >> 4
        let sampleRate = (third >> 2) & 0x03
        guard version != 1, bitrate != 0, bitrate != 0x0F, sampleRate != 0x03 else { return nil }
        return "audio/mpeg"
    }

    static func containsSequence(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        let start = haystack.startIndex
        return (start...(haystack.endIndex - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
