internal import CCurl

/// One libcurl easy handle and the memory it points into (error buffer,
/// header list).
///
/// - Important: not Sendable: created, configured, used and destroyed on the
///   curl thread only.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        _ = lp_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(raw)
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
        errorBuffer.deallocate()
    }

    /// curl's text for the last error on this handle, or "".
    var errorText: String { String(cString: errorBuffer) }

    // MARK: The thin call layer: one line per option type, errors made uniform.

    func set(_ option: CURLoption, _ value: Int) -> Result<Void, CurlError> {
        check(lp_easy_setopt_long(raw, option, value))
    }

    func set(_ option: CURLoption, _ value: String) -> Result<Void, CurlError> {
        check(lp_easy_setopt_string(raw, option, value))
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> Result<Void, CurlError> {
        check(lp_easy_setopt_pointer(raw, option, pointer))
    }

    func set(_ option: CURLoption, callback: curl_write_callback) -> Result<Void, CurlError> {
        check(lp_easy_setopt_write_callback(raw, option, callback))
    }

    func set(openSocket callback: curl_opensocket_callback) -> Result<Void, CurlError> {
        check(lp_easy_setopt_opensocket_callback(raw, callback))
    }

    func set(transferInfo callback: curl_xferinfo_callback) -> Result<Void, CurlError> {
        check(lp_easy_setopt_xferinfo_callback(raw, callback))
    }

    /// Makes the request a POST of `bytes`. `CURLOPT_COPYPOSTFIELDS`: curl
    /// keeps its own copy, so the bytes need not outlive this call; the size
    /// is set first, so a zero byte in them does not end them.
    func set(postBody bytes: [UInt8]) -> Result<Void, CurlError> {
        if case .failure(let error) = check(lp_easy_setopt_off_t(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))) {
            return .failure(error)
        }
        // An empty body still needs an address for curl to copy nothing from.
        let stored = bytes.isEmpty ? [0] : bytes
        return stored.withUnsafeBytes {
            check(lp_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)))
        }
    }

    /// Replaces the extra request headers.
    func set(headers: [String]) -> Result<Void, CurlError> {
        curl_slist_free_all(headerList)
        headerList = nil
        for header in headers { headerList = curl_slist_append(headerList, header) }
        return check(lp_easy_setopt_pointer(raw, CURLOPT_HTTPHEADER, headerList))
    }

    /// Replaces the name overrides (`HOST:PORT:ADDR` entries).
    func set(resolve entries: [String]) -> Result<Void, CurlError> {
        curl_slist_free_all(resolveList)
        resolveList = nil
        for entry in entries { resolveList = curl_slist_append(resolveList, entry) }
        return check(lp_easy_setopt_pointer(raw, CURLOPT_RESOLVE, resolveList))
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard lp_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    func offT(_ info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        guard lp_easy_getinfo_off_t(raw, info, &value) == CURLE_OK else { return nil }
        return Int64(value)
    }

    func long(_ info: CURLINFO) -> Int? {
        var value = 0
        guard lp_easy_getinfo_long(raw, info, &value) == CURLE_OK else { return nil }
        return value
    }

    private func check(_ code: CURLcode) -> Result<Void, CurlError> {
        code == CURLE_OK ? .success(()) : .failure(CurlError(code: code, buffer: errorText))
    }
}
