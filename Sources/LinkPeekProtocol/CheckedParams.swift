/// Params with rules beyond their types (ranges, choices): the server
/// answers the first broken rule with -32602 and this sentence.
public protocol CheckedParams: Decodable {
    /// The first rule these params break, naming the field; nil when none.
    func validationError() -> String?
}

extension FetchParams: CheckedParams {}
extension GetMediaParams: CheckedParams {}
extension PrefetchParams: CheckedParams {}
