internal import CCurl

/// The body's content coding, undone by linkpeek rather than by curl.
///
/// curl is asked for gzip and deflate only (`EasyHandle.acceptEncoding`)
/// and decodes nothing (`CURLOPT_HTTP_CONTENT_DECODING` 0): the body comes
/// as sent, and `ContentDecoder` inflates it in steps as far as the
/// consumer reads. Once the consumer stops, nothing more is inflated: the
/// rest of a chunk is dropped encoded, and a drain reads the rest of the
/// response without inflating it (`Transfer+Drain`). `bytesRead` and the
/// byte cap count decoded bytes, as when curl decoded: a gzip bomb is cut
/// at the same decoded size.
extension Transfer {
    /// How the last delivery to the consumer ended.
    enum DeliveryEnd {
        case none
        /// The consumer stopped, or the byte cap was reached: curl stops the transfer.
        case stopped
        /// The consumer stopped and the rest of the response is read to keep the connection.
        case draining
    }

    /// Sets up the decoder for this response's `Content-Encoding` at its
    /// first body bytes; false (with `decodingFailure` set) for a coding
    /// linkpeek does not decode, which ends the transfer as curl did.
    func chooseDecoder() -> Bool {
        if decoderChosen { return decodingFailure == nil }
        decoderChosen = true
        guard let value = fields["content-encoding"] else { return true }
        guard let codings = ContentDecoder.codings(of: value) else {
            decodingFailure = CurlError(
                code: CURLE_BAD_CONTENT_ENCODING,
                buffer: "Unrecognized content encoding type. linkpeek understands deflate, gzip content encodings.")
            return false
        }
        decoder = ContentDecoder(codings: codings)
        return true
    }
}
