/// The label table of the WHATWG Encoding Standard, with the glibc `iconv`
/// name used to decode each encoding.
extension WHATWGEncoding {
    /// Every label, normalized (lowercase, no surrounding whitespace).
    static let byLabel: [String: WHATWGEncoding] = {
        var table: [String: WHATWGEncoding] = [:]
        for (encoding, labels) in entries {
            for label in labels { table[label] = encoding }
        }
        return table
    }()

    private static func iconv(_ name: String, _ iconvNames: String..., unit: Int = 1) -> WHATWGEncoding {
        WHATWGEncoding(name: name, decoder: .iconv(names: iconvNames, unit: unit))
    }

    private static func windows(_ number: Int, extra: [String] = []) -> (WHATWGEncoding, [String]) {
        let labels = ["cp\(number)", "windows-\(number)", "x-cp\(number)"] + extra
        return (iconv("windows-\(number)", "CP\(number)"), labels)
    }

    private static let entries: [(WHATWGEncoding, [String])] = [
        (.utf8, ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"]),
        (iconv("IBM866", "IBM866"), ["866", "cp866", "csibm866", "ibm866"]),
        (iconv("ISO-8859-2", "ISO-8859-2"), ["csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"]),
        (iconv("ISO-8859-3", "ISO-8859-3"), ["csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988", "l3", "latin3"]),
        (iconv("ISO-8859-4", "ISO-8859-4"), ["csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988", "l4", "latin4"]),
        (iconv("ISO-8859-5", "ISO-8859-5"), ["csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5", "iso_8859-5:1988"]),
        (iconv("ISO-8859-6", "ISO-8859-6"), ["arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987"]),
        (iconv("ISO-8859-7", "ISO-8859-7"), ["csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek"]),
        (iconv("ISO-8859-8", "ISO-8859-8"), ["csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual"]),
        (iconv("ISO-8859-8-I", "ISO-8859-8"), ["csiso88598i", "iso-8859-8-i", "logical"]),
        (iconv("ISO-8859-10", "ISO-8859-10"), ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"]),
        (iconv("ISO-8859-13", "ISO-8859-13"), ["iso-8859-13", "iso8859-13", "iso885913"]),
        (iconv("ISO-8859-14", "ISO-8859-14"), ["iso-8859-14", "iso8859-14", "iso885914"]),
        (iconv("ISO-8859-15", "ISO-8859-15"), ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"]),
        (iconv("ISO-8859-16", "ISO-8859-16"), ["iso-8859-16"]),
        (iconv("KOI8-R", "KOI8-R"), ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"]),
        (iconv("KOI8-U", "KOI8-U"), ["koi8-ru", "koi8-u"]),
        (iconv("macintosh", "MACINTOSH"), ["csmacintosh", "mac", "macintosh", "x-mac-roman"]),
        (iconv("windows-874", "WINDOWS-874", "CP874"), ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"]),
        windows(1250),
        windows(1251),
        (.windows1252, ["ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"]),
        windows(1253),
        windows(1254, extra: ["csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5"]),
        windows(1255),
        windows(1256),
        windows(1257),
        windows(1258),
        (iconv("x-mac-cyrillic", "MAC-CYRILLIC", "MACCYRILLIC"), ["x-mac-cyrillic", "x-mac-ukrainian"]),
        // GBK is decoded as GB18030, its superset, as the standard does.
        (iconv("GBK", "GB18030", "GBK"), ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"]),
        (iconv("gb18030", "GB18030"), ["gb18030"]),
        (iconv("Big5", "BIG5-HKSCS", "BIG5"), ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"]),
        // EUC-JP-MS and CP932 match the WHATWG (Windows-flavoured) indexes
        // better than glibc's plain EUC-JP and SHIFT_JIS.
        (iconv("EUC-JP", "EUC-JP-MS", "EUC-JP"), ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"]),
        (iconv("ISO-2022-JP", "ISO-2022-JP"), ["csiso2022jp", "iso-2022-jp"]),
        (iconv("Shift_JIS", "CP932", "SHIFT_JIS"), ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"]),
        (iconv("EUC-KR", "CP949", "EUC-KR"), ["cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"]),
        (WHATWGEncoding(name: "replacement", decoder: .replacement), ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement"]),
        (.utf16BE, ["unicodefffe", "utf-16be"]),
        (.utf16LE, ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"]),
        (.userDefined, ["x-user-defined"]),
    ]
}
