internal import CCurl
import FoundationEssentials
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// libcurl's callbacks. Each finds its `Transfer` through the userdata
/// pointer, which the engine keeps alive while the transfer is active.
enum TransferCallbacks {
    static func transfer(_ userdata: UnsafeMutableRawPointer?) -> Transfer? {
        userdata.map { Unmanaged<Transfer>.fromOpaque($0).takeUnretainedValue() }
    }

    /// CURLOPT_WRITEFUNCTION: body bytes, after decompression.
    static let body: curl_write_callback = { data, size, count, userdata in
        guard let transfer = transfer(userdata), let data else { return 0 }
        return transfer.deliverBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    /// CURLOPT_HEADERFUNCTION: one header line at a time, for every response
    /// in a redirect chain.
    static let header: curl_write_callback = { data, size, count, userdata in
        guard let transfer = transfer(userdata), let data else { return 0 }
        let length = size * count
        return transfer.handleHeaderLine(UnsafeRawBufferPointer(start: data, count: length)) == .proceed ? length : 0
    }

    /// CURLOPT_XFERINFOFUNCTION: called often while data moves and about
    /// once a second while it does not (a server thinking), so a wait on a
    /// reused connection is seen too. Never aborts the transfer.
    static let progress: curl_xferinfo_callback = { userdata, _, _, _, _ in
        transfer(userdata)?.noteProgress()
        return 0
    }

    /// CURLOPT_OPENSOCKETFUNCTION: the one place every connection is made,
    /// after DNS and on every redirect, so the address policy lives here.
    static let openSocket: curl_opensocket_callback = { userdata, _, address in
        guard let transfer = transfer(userdata), let address else { return CURL_SOCKET_BAD }
        if transfer.viaProxy {
            // The proxy, the user's choice; the target passed `HopCheck` before this hop started.
            transfer.connecting()
            return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue),
                          address.pointee.protocol)
        }
        let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr) ?? 16
        let raw = UnsafeRawPointer(address).advanced(by: offset)
        guard let ip = IPAddress(sockaddr: raw, length: Int(address.pointee.addrlen)),
            transfer.request.policy.permits(ip)
        else {
            let refused = IPAddress(sockaddr: raw, length: Int(address.pointee.addrlen)) ?? .v4(0)
            transfer.refusedAddress = refused
            transfer.request.logger.info("address refused", metadata: [
                "url": "\(transfer.hopURL)", "address": "\(refused)",
                "rule": "\(transfer.request.policy.refusingRule(for: refused) ?? "unparsable socket address")",
            ])
            return CURL_SOCKET_BAD
        }
        transfer.connecting()
        return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue),
                      address.pointee.protocol)
    }
}

extension Transfer {
    /// Tells the consumer once that the request is on the wire, as libcurl
    /// measures it (`CURLINFO_PRETRANSFER_TIME_T`: the name lookup, the
    /// connection and TLS are behind it, or a kept-alive connection was
    /// taken), until the response starts.
    /// - Important: called on the curl thread only.
    func noteProgress() {
        guard !toldRequestSent, head == nil, let easy, let sent = easy.offT(CURLINFO_PRETRANSFER_TIME_T), sent > 0
        else { return }
        toldRequestSent = true
        requestSent()
    }

    /// Feeds body bytes (as sent: curl decodes no content coding) to the
    /// consumer, decoded as far as it reads, enforcing the byte cap on the
    /// decoded bytes. Returns the count consumed; anything else makes curl
    /// stop the transfer.
    func deliverBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // The rest of a response read only to keep its connection goes nowhere, still encoded.
        if draining { return bytes.count }
        if head == nil, deliverHead(ResponseHead(status: status, url: currentURL, fields: fields)) == .stop {
            return 0
        }
        if draining { return bytes.count }
        guard chooseDecoder() else { return 0 }
        guard let decoder else { return pass(bytes) ? bytes.count : afterDelivery(bytes) }
        switch decoder.decode(bytes, deliver: pass) {
        case .consumed: return bytes.count
        case .stopped: return afterDelivery(bytes)
        case .failed(let reason):
            decodingFailure = CurlError(
                code: CURLE_BAD_CONTENT_ENCODING, buffer: "Error while processing content unencoding: \(reason)")
            return 0
        }
    }

    /// Hands decoded bytes to the consumer within the byte cap; false when
    /// the delivery ends here (`deliveryEnd` says why).
    private func pass(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let room = request.maxBytes - bytesRead
        let take = min(room, bytes.count)
        if take > 0 {
            bytesRead += take
            let decision = received(UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            if decision == .stop {
                deliveryEnd = stopOrDrain() ? .draining : .stopped
                return false
            }
            noteSettling(decision)
        }
        if take < bytes.count {
            truncated = true
            deliveryEnd = .stopped
            return false
        }
        return true
    }

    /// What curl is told once the delivery ended within `bytes`: all taken
    /// when the transfer drains (the rest goes nowhere), none when it stops.
    private func afterDelivery(_ bytes: UnsafeRawBufferPointer) -> Int {
        deliveryEnd == .draining ? bytes.count : 0
    }

    /// One header line, as bytes: a status line starts a new response, an
    /// empty line ends one, anything else is a field. (Bytes, not Foundation
    /// string trimming: this runs for every header of every response.)
    func handleHeaderLine(_ line: UnsafeRawBufferPointer) -> TransferDecision {
        let line = Self.trimmed(line[...])
        if line.isEmpty { return endOfHeaderBlock() }
        if line.starts(with: "HTTP/".utf8) {
            let afterVersion = line.drop { $0 != UInt8(ascii: " ") }.dropFirst()
            status = Int(String(decoding: afterVersion.prefix { (48...57).contains($0) }, as: UTF8.self)) ?? 0
            fields = [:]
            // A new response: its own coding, chosen at its first body bytes.
            decoder = nil
            decoderChosen = false
            return .proceed
        }
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: Self.trimmed(line[..<colon]), as: UTF8.self).lowercased()
            let value = String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)
            // Repeated `Link` fields are one list (RFC 9110 §5.3): oEmbed discovery reads them all.
            if name == "link", let earlier = fields[name] { fields[name] = earlier + ", " + value } else { fields[name] = value }
        }
        return .proceed
    }

    /// `bytes` without leading and trailing spaces, tabs, CR and LF.
    static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.startIndex..<bytes.startIndex] }
        return bytes[first...last]
    }

    private func endOfHeaderBlock() -> TransferDecision {
        if (100..<200).contains(status) { return .proceed }
        // A request with a body follows no redirect (`configure`): its 3xx is the answer.
        if (300..<400).contains(status), fields["location"] != nil, request.body == nil {
            // curl follows it (or fails with too many redirects); record the hop.
            redirects.append(Hop(url: currentURL, status: status))
            if followsRedirectsItself {
                // The loop checks the next hop and starts it (`MultiLoop.followRedirect`).
                redirectPending = true
                redirectTarget = fields["location"].flatMap { URL(string: $0, relativeTo: URL(string: currentURL)) }?
                    .absoluteString
                return .stop
            }
            return .proceed
        }
        return deliverHead(ResponseHead(status: status, url: currentURL, fields: fields))
    }

    private func deliverHead(_ response: ResponseHead) -> TransferDecision {
        head = response
        let decision = responseStarted(response)
        if decision == .stop, stopOrDrain() { return .proceed }
        noteSettling(decision)
        return decision
    }

    private var currentURL: String { easy?.string(CURLINFO_EFFECTIVE_URL) ?? request.url }
}
