// The preview (`LinkMetadata` and its parts) and the rules that make one
// (`MetadataRules`) live in targets of their own, so that the compiler keeps
// the rules pure; they are part of this library's API, as they were when
// they lived here: every user of `LinkPeek` sees them through it.
@_exported import Metadata
@_exported import Rules
@_exported import SiteEngines
