#if canImport(Glibc)
import Glibc
#endif

/// The width of the terminal on stdout, for text cards.
enum TerminalWidth {
    /// The terminal's columns when stdout is one, else `$COLUMNS`, else nil.
    static func current() -> Int? {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        guard let text = getenv("COLUMNS"), let columns = Int(String(cString: text)), columns > 0 else { return nil }
        return min(columns, 1000)
    }
}
