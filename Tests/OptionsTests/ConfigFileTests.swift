import Testing

@testable import Options

@Suite struct ConfigFileTests {
    private func read(_ text: String) -> ConfigFile {
        ConfigFile.parse(Array(text.utf8), path: "config.toml")
    }

    @Test func readsKeysTablesAndRules() {
        let file = read("""
            timeout = 12
            userAgent = "ua/1"
            allowNetwork = ["10.0.0.0/8"]
            [hover]
            fetch = "allowList"
            allow = ["*.example.com"]

            [[site]]
            match = "*.reddit.com"
            userAgent = "bot/1"
            headers = { "X-Test" = "1" }
            minTTL = 60
            failureTTL = { notFound = 600, timedOut = 600 }
            fetch = "cacheOnly"

            [[site]]
            match = ["https://api.example.org/v1"]
            headers = { Authorization = "Bearer x" }
            allowCredentials = true
            token = "t"
            """)
        #expect(file.problems == [])
        #expect(file.options.timeout == 12)
        #expect(file.options.userAgent == "ua/1")
        #expect(file.options.allowNetwork == ["10.0.0.0/8"])
        #expect(file.options.hoverFetch == .allowList)
        #expect(file.options.hoverAllow == ["*.example.com"])
        let rules = file.options.siteRules ?? []
        #expect(rules.count == 2)
        #expect(rules.first?.line == 8)
        #expect(rules.first?.headers == ["X-Test": "1"])
        #expect(rules.first?.failureTTL == [.notFound: 600, .timedOut: 600])
        #expect(rules.first?.fetch == .cacheOnly)
        #expect(rules.last?.headers == ["Authorization": "Bearer x"])
        #expect(rules.last?.token == "t")
    }

    @Test func aDateWithNoHourAfterItsTIsRefusedBeforeTheParser() {
        // toml++ asserts (stopping the process) on this; the check refuses it first.
        let file = read("timeout = 3\na = [1979-05-27T:]\n")
        #expect(file.problems.map(\.description) == [
            "config.toml:2: has a date and time with no hour after its T, which TOML does not allow; none of it is applied.",
        ])
        for text in ["a = 1979-05-27T&7:32:00Z\n", "a = 1979-05-27tx:\n", "a = [1979-05-27T.7:32]\n"] {
            #expect(read(text).problems.map(\.message) == [
                "has a date and time with no hour after its T, which TOML does not allow; none of it is applied",
            ], "\(text)")
        }
        // Without a `:` in the value, or with a digit after the T, the parser has its say.
        for text in ["a = 1979-05-27T&7\n", "a = 1979-05-27T1:\n", "a = 1979-05-27Tx, b:\n"] {
            #expect(read(text).problems.first?.message.hasPrefix("is not valid TOML") == true, "\(text)")
        }
        #expect(read("a9Tx = 1\nb = 1979-05-27T07:32:00Z\n").problems.map(\.message) == [
            "a9Tx is not a key of linkpeek (`linkpeek config keys` lists them)",
            "b is not a key of linkpeek (`linkpeek config keys` lists them)",
        ])
    }

    @Test func aTableHeaderWithNoKeyAfterItsBracketIsRefusedBeforeTheParser() {
        // toml++ asserts (stopping the process) on each; found by fuzzing toml++ behind this check.
        for (text, line) in [("[[[site]]\n", 1), ("timeout = 3\n  [=a]\n", 2), ("[\n", 1), ("[[ #c\n", 1), ("[é]\n", 1),
            ("\u{FEFF}[.a]\n", 1), ("a = \"\"\"\nx [[\n\"\"\"\n[=]\n", 4), ("a = \"\"\"x\"\"\"\"\"\n[=]\n", 2)]
        {
            #expect(read(text).problems.map(\.description) == [
                "config.toml:\(line): has a table header with no name after its [, which TOML does not allow; none of it is applied.",
            ], "\(text)")
        }
        // Headers the parser reads, and brackets inside values, pass the check (their keys are unknown).
        for text in ["[ \"a\" ]\n", "[[ 'a' ]]\n", "[-]\n", "a = [\n  [ [1] ],\n  [{b = 1}],\n]\n"] {
            let problems = read(text).problems
            #expect(problems.count == 1 && problems[0].message.hasSuffix("is not a key of linkpeek (`linkpeek config keys` lists them)"), "\(text)")
        }
        #expect(read("[ [a]]\n").problems.first?.message.contains("brackets must be contiguous") == true)
        #expect(read("[]\n").problems.first?.message.contains("blank bare keys") == true)
        #expect(read("[").problems.first?.message.contains("end-of-file") == true)
    }

    @Test func aBraceWhereAnArrayValueShouldBeIsRefusedBeforeTheParser() {
        // toml++ asserts (stopping the process) on each; found by fuzzing toml++ behind this check.
        for (text, line) in [("a = [}\n", 1), ("a = [1, }\n", 1), ("a = [ # c\n\n}\n", 3), ("a = {b = [}\n", 1),
            ("a = [ \"\"\"\nx\"\"\", [}]\n", 2), ("a = [ '''\n]'''\n, [}]\n", 3)]
        {
            #expect(read(text).problems.map(\.description) == [
                "config.toml:\(line): has a } where a value should be, which TOML does not allow; none of it is applied.",
            ], "\(text)")
        }
        // Inside strings, multi-line ones too, and after a value, the parser has its say.
        for text in ["a = \"[}\"\n", "a = \"\"\"\n[}\n[=]\n,}\"\"\"\n", "a = '''\n[}'''\n", "a = [1 # [}\n]\n"] {
            let problems = read(text).problems
            #expect(problems.count == 1 && problems[0].message.hasSuffix("is not a key of linkpeek (`linkpeek config keys` lists them)"), "\(text)")
        }
        #expect(read("a = [1 }\n").problems.first?.message.contains("is not valid TOML") == true)
        #expect(read("a = {b = 1,}\n").problems.first?.message.contains("} where a value should be") == true)
    }

    @Test func syntaxErrorNamesTheLine() {
        let file = read("timeout = 3\nuserAgent = \n")
        #expect(file.problems.count == 1)
        #expect(file.problems.first?.line == 2)
        #expect(file.problems.first?.description.hasPrefix("config.toml:2: is not valid TOML (") == true)
        #expect(file.options == Options())
    }

    @Test func unknownKeyOutOfRangeAndBadPatternEachOneSentenceTheRestApplied() {
        let file = read("""
            timeout = 3
            timout = 4
            maxConcurrency = 0
            [hover]
            fetch = "sometimes"
            deny = ["http://x"]
            """)
        #expect(file.problems.map(\.description) == [
            "config.toml:2: timout is not a key of linkpeek (`linkpeek config keys` lists them).",
            "config.toml:3: maxConcurrency must be an integer from 1 to 1024.",
            "config.toml:5: hover.fetch must be one of \"always\", \"allowList\", \"cacheOnly\".",
            "config.toml:6: hover.deny must be host patterns such as \"example.com\", \"*.example.com\" or \"example.com/path\".",
        ])
        #expect(file.options.timeout == 3)
        #expect(file.options.maxConcurrency == nil)
    }

    @Test func siteRuleProblems() {
        let file = read("""
            [[site]]
            match = "example.com"
            headers = { Cookie = "a=b" }

            [[site]]
            match = "https://api.example.com"
            allowCredentials = true
            failureTTL = { rateLimited = 5 }
            speed = 3

            [[site]]
            userAgent = "x"
            """)
        #expect(file.problems.map(\.description) == [
            "config.toml:3: [[site]] 1: headers.Cookie is refused: Host, Cookie and Authorization need allowCredentials = true and match patterns that each name one https:// host.",
            "config.toml:8: [[site]] 2: failureTTL.rateLimited cannot be set: a rate-limited host is held for its Retry-After, never longer.",
            "config.toml:9: [[site]] 2: speed is not a key of a [[site]] rule (`linkpeek config keys` lists them).",
            "config.toml:11: [[site]] 3 needs match = \"host\" (host patterns such as \"example.com\", \"*.example.com\" or \"example.com/path\").",
        ])
        #expect(file.options.siteRules?.count == 2)
        #expect(file.options.siteRules?.first?.headers == [:])
    }

    /// The byte checks of one-line and header values agree with the
    /// character rules they stand for: every newline a `Character` knows,
    /// and the length limit counted in characters, not bytes.
    @Test func oneLineAndHeaderValueChecksCountCharacters() {
        for newline in ["\\n", "\\r", "\\u000B", "\\f", "\\u0085", "\\u2028", "\\u2029"] {
            let file = read("[[site]]\nmatch = \"a.test\"\nuserAgent = \"a\(newline)b\"\n")
            #expect(file.problems.map(\.description) == ["config.toml:3: [[site]] 1: userAgent must be one line."], "\(newline)")
        }
        // 1,024 characters of two bytes each: within the limit.
        let wide = String(repeating: "é", count: 1_024)
        #expect(read("[[site]]\nmatch = \"a.test\"\nheaders = { X-A = \"\(wide)\" }\n").problems.isEmpty)
        #expect(read("[[site]]\nmatch = \"a.test\"\nacceptLanguage = \"\(wide)\"\n").problems.isEmpty)
        let long = read("[[site]]\nmatch = \"a.test\"\nacceptLanguage = \"\(wide)e\"\nuserAgent = \"a\\u007Fb\"\n")
        #expect(long.problems.map(\.description) == [
            "config.toml:3: [[site]] 1: acceptLanguage must be at most 1024 characters without control characters.",
        ])
        #expect(long.options.siteRules?.first?.userAgent == "a\u{7F}b")
    }

    @Test func credentialsToAnHTTPHostOrAWildcardAreRefused() {
        for match in ["\"api.example.com\"", "\"https://*.example.com\""] {
            let file = read("[[site]]\nmatch = \(match)\nallowCredentials = true\nheaders = { Authorization = \"x\" }\n")
            #expect(file.problems.map(\.line) == [4], "\(match)")
            #expect(file.options.siteRules?.first?.headers == [:])
        }
        // An http:// pattern is no pattern at all: the rule goes, with its header.
        let http = read("[[site]]\nmatch = \"http://api.example.com\"\nallowCredentials = true\nheaders = { Authorization = \"x\" }\n")
        #expect(http.problems.map(\.line) == [2])
        #expect(http.options.siteRules == [])
    }

    @Test func bytesTheParserNeverSees() {
        #expect(read("a = \"\u{0}\"").problems.first?.description == "config.toml:1: has the control character U+0000, which TOML does not allow; none of it is applied.")
        // toml++ asserted (and aborted the process) on this one, found by Tests/fuzz/fuzz_config.py.
        #expect(read("[\u{1A}sit = 600").problems.first?.description == "config.toml:1: has the control character U+001A, which TOML does not allow; none of it is applied.")
        let invalid = ConfigFile.parse([0x61, 0x3D, 0x22, 0xFF, 0x22], path: "c.toml")
        #expect(invalid.problems.first?.description == "c.toml: is not valid UTF-8, which TOML requires; none of it is applied.")
        let deep = read("a = " + String(repeating: "[", count: 5000))
        #expect(deep.problems.first?.description == "config.toml:1: nests arrays or tables more than 16 deep; none of it is applied.")
        let large = ConfigFile.parse([UInt8](repeating: 0x23, count: (1 << 20) + 1), path: "c.toml")
        #expect(large.problems.first?.description == "c.toml: is 1048577 bytes; a configuration file may have at most 1048576; none of it is applied.")
    }
}
