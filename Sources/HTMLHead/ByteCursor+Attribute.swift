/// The HTML standard's "get an attribute" step of the encoding prescan.
extension ByteCursor {
    /// The next attribute as (lowercased name, lowercased value): `.some(nil)`
    /// at the tag's `>`, nil when the bytes end first.
    mutating func nextAttribute() -> ([UInt8], [UInt8])?? {
        while let current = byte(), ByteCursor.isSpace(current) || current == UInt8(ascii: "/") { position += 1 }
        guard let first = byte() else { return nil }
        if first == UInt8(ascii: ">") { return .some(nil) }
        var name: [UInt8] = []
        let value: [UInt8] = []
        // The name: up to `=`, whitespace, `/` or `>`.
        while true {
            guard let current = byte() else { return nil }
            if current == UInt8(ascii: "="), !name.isEmpty {
                position += 1
                return readValue(name: name)
            }
            if ByteCursor.isSpace(current) { break }
            if current == UInt8(ascii: "/") || current == UInt8(ascii: ">") { return (name, value) }
            name.append(ByteCursor.lower(current))
            position += 1
        }
        while let current = byte(), ByteCursor.isSpace(current) { position += 1 }
        guard let afterName = byte() else { return nil }
        guard afterName == UInt8(ascii: "=") else { return (name, value) }
        position += 1
        return readValue(name: name)
    }

    private mutating func readValue(name: [UInt8]) -> ([UInt8], [UInt8])?? {
        var value: [UInt8] = []
        while let current = byte(), ByteCursor.isSpace(current) { position += 1 }
        guard let first = byte() else { return nil }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            position += 1
            while true {
                guard let current = byte() else { return nil }
                position += 1
                if current == first { return (name, value) }
                value.append(ByteCursor.lower(current))
            }
        }
        if first == UInt8(ascii: ">") { return (name, value) }
        while true {
            guard let current = byte() else { return nil }
            if ByteCursor.isSpace(current) || current == UInt8(ascii: ">") { return (name, value) }
            value.append(ByteCursor.lower(current))
            position += 1
        }
    }
}
