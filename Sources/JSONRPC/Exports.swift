// The wire's values (`JSONValue`, `RawJSON`) are part of this module's API:
// every user of `JSONRPC` sees the `JSON` module's types through it.
@_exported import JSON
