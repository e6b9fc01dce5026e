#!/usr/bin/env python3
"""Writes linkpeek(1) in man(7) format from the binary's own description of
its commands (`linkpeek --experimental-dump-help`, swift-argument-parser's
JSON), so that the page says what `--help` says for the build it ships with.

Usage: manpage.py BINARY OUTPUT [--date YYYY-MM-DD]
"""
import datetime
import json
import subprocess
import sys


def escape(text):
    """Plain text for a man(7) line: backslashes doubled, a leading dot or quote made inert."""
    lines = []
    for line in text.replace("\\", "\\e").replace("-", "\\-").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def option_label(argument):
    """`-o, --output <file>` for an option, `<urls> ...` for a positional argument."""
    value = argument.get("valueName", "")
    if argument["kind"] == "positional":
        label = f"<{value}>"
    else:
        names = []
        for name in argument.get("names", []):
            dash = "-" if name["kind"] == "short" else "--"
            names.append(dash + name["name"])
        label = ", ".join(names)
        if argument["kind"] == "option":
            label += f" <{value}>"
    if argument.get("isRepeating"):
        label += " ..."
    return label


def describe(argument):
    text = argument.get("abstract", "")
    if argument.get("discussion"):
        discussion = argument["discussion"]
        if isinstance(discussion, dict):
            discussion = discussion.get("staticText") or ", ".join(
                value.get("value", "") for value in discussion.get("enumerated", {}).get("values", []))
        text += "\n" + str(discussion)
    if argument.get("defaultValue") not in (None, ""):
        text += f" (default: {argument['defaultValue']})"
    allowed = argument.get("allValues")
    if allowed:
        text += f" (values: {', '.join(allowed)})"
    return text


def arguments_section(command, out):
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True):
            continue
        out.append(".TP")
        out.append("\\fB" + escape(option_label(argument)) + "\\fR")
        out.append(escape(describe(argument)))


def command_section(command, path, out):
    """One `.SS` per subcommand (depth first), with its arguments."""
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        name = " ".join(path + [sub["commandName"]])
        out.append(".SS " + escape(name))
        if sub.get("abstract"):
            out.append(escape(sub["abstract"]))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(".nf")
            out.append(escape(sub["discussion"]))
            out.append(".fi")
        arguments_section(sub, out)
        command_section(sub, path + [sub["commandName"]], out)


def manual(info, version, date):
    command = info["command"]
    name = command["commandName"]
    out = [
        f'.TH {name.upper()} 1 "{date}" "{escape(name)} {escape(version)}" "User Commands"',
        # No hyphenation, ragged right: option names and URLs stay whole.
        ".nh",
        ".ad l",
        ".SH NAME",
        f"{escape(name)} \\- {escape(command.get('abstract', ''))}",
        ".SH SYNOPSIS",
        f"\\fB{escape(name)}\\fR \\fIcommand\\fR [\\fIoptions\\fR]",
    ]
    if command.get("discussion"):
        out += [".SH DESCRIPTION", ".nf", escape(command["discussion"]), ".fi"]
    out += [".SH OPTIONS"]
    arguments_section(command, out)
    out += [".SH COMMANDS"]
    command_section(command, [name], out)
    out += [
        ".SH FILES",
        ".TP",
        "\\fI$XDG_CACHE_HOME/linkpeek/cache.sqlite\\fR",
        "The preview cache and saved links (\\fI~/.cache/linkpeek\\fR when XDG_CACHE_HOME is unset; "
        "\\fB\\-\\-cache\\-dir\\fR overrides).",
        ".SH SEE ALSO",
        "The README and protocol/README.md in the linkpeek sources; "
        "the editor plugins in \\fI/usr/share/linkpeek/editors\\fR (or \\fIshare/linkpeek/editors\\fR of the tarball).",
    ]
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    date = datetime.date.today().isoformat()
    if "--date" in args:
        index = args.index("--date")
        date = args[index + 1]
        del args[index:index + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    binary, output = args
    dump = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True, timeout=60, check=True)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    with open(output, "w", encoding="utf-8") as file:
        file.write(manual(json.loads(dump.stdout), version, date))


if __name__ == "__main__":
    main()
