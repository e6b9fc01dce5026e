// The seeded generator and the tag builders, for the tests that use this target.
@_exported import PureTestSupport
