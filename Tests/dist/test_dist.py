"""The release as users install it (`make test-dist`): the binary
unpacked from the tarball needs only Debian's libraries, the .deb says so
and carries its files in Debian's places, and the core integration tests
pass against that binary run from another directory with LD_LIBRARY_PATH
empty."""
import json
import os
import pathlib
import re
import subprocess
import sys
import tarfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("LINKPEEK_BIN", ""))
DIST = pathlib.Path(os.environ.get("LINKPEEK_DIST", ROOT / "dist"))

# The core of the integration suite: fetch, the daemon, an LSP hover, the
# cache across processes, images.
CORE_TESTS = [
    "test_cli_fetch.py::test_open_graph_page",
    "test_cli_fetch.py::test_help_and_version",
    "test_daemon.py::test_initialize_result",
    "test_daemon.py::test_fetch_page",
    "test_lsp.py::test_hover_shows_the_page_card_and_plain_text_shows_nothing",
    "test_cache.py::test_restart_answers_from_disk_with_zero_hits",
    "test_cache.py::test_cli_fetch_uses_the_same_cache_and_cache_commands",
    "test_cache.py::test_two_daemons_and_a_cli_loop_share_one_directory",
    "test_images.py::test_output_formats",
]


def run(*args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=True, **kwargs)


def only(pattern):
    found = sorted(DIST.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {DIST}: {found}"
    return found[0]


@pytest.fixture(scope="module")
def binary():
    assert BIN.is_file() and os.access(BIN, os.X_OK), f"LINKPEEK_BIN={BIN} is not the unpacked binary"
    return BIN


def ldd_paths(binary):
    """Each library ldd resolves, as (name, path); a missing one fails."""
    out = run("ldd", str(binary), env={"PATH": os.environ["PATH"], "LD_LIBRARY_PATH": ""}).stdout
    assert "not found" not in out, out
    libraries = []
    for line in out.splitlines():
        match = re.match(r"\s*(\S+) => (\S+)", line)
        if match:
            libraries.append((match.group(1), match.group(2)))
        elif match := re.match(r"\s*(/\S+) \(0x", line):
            # The dynamic loader, named by its path (the ELF interpreter).
            libraries.append((os.path.basename(match.group(1)), match.group(1)))
    return libraries


def owning_package(path):
    """The Debian package that installed `path` (through its real path when a link)."""
    for candidate in (path, os.path.realpath(path)):
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, timeout=60)
        if result.returncode == 0:
            return result.stdout.split(":")[0].split(",")[0].strip()
    return None


def test_ldd_names_only_debian_libraries(binary):
    libraries = ldd_paths(binary)
    assert libraries, "ldd found no libraries (a static binary was not expected)"
    for name, path in libraries:
        # /lib64 holds only the x86-64 ABI's loader path (a link into /lib on Debian 12).
        assert path.startswith(("/lib/", "/usr/lib/", "/lib64/ld-linux")), f"{name} comes from {path}, outside Debian's folders"
        assert owning_package(path), f"{name} ({path}) is not from a Debian package"
    names = {name for name, _ in libraries}
    assert not any(name.startswith(("libswift", "libFoundation", "libdispatch", "libBlocksRuntime"))
                   for name in names), f"toolchain libraries: {sorted(names)}"
    # libcurl and libvips are opened on first use, not linked: an idle daemon does not pay for them.
    assert not any(name.startswith(("libcurl", "libvips")) for name in names), sorted(names)


def test_version_names_the_commit(binary):
    """`make dist` built it from this checkout: its commit, marked -dirty when files were changed."""
    out = run(str(binary), "--version").stdout.strip()
    version = re.search(r'static let version = "([^"]+)"', (ROOT / "Sources/LinkPeek/Engine/Settings.swift").read_text()).group(1)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True, timeout=60)
    if head.returncode != 0:
        commit = "unknown"  # a checkout without git: what the binary says then
    else:
        dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--"], timeout=60).returncode != 0
        commit = head.stdout.strip() + ("-dirty" if dirty else "")
    assert out == f"{version} (commit {commit})"


def test_tarball_layout():
    tarball = only("linkpeek-*-linux-*.tar.gz")
    top = tarball.name[: -len(".tar.gz")]
    with tarfile.open(tarball) as archive:
        names = set(archive.getnames())
    for path in ["bin/linkpeek", "share/man/man1/linkpeek.1", "share/bash-completion/completions/linkpeek",
                 "share/zsh/site-functions/_linkpeek", "share/fish/vendor_completions.d/linkpeek.fish",
                 "share/linkpeek/editors/README.md", "share/linkpeek/editors/neovim/plugin/linkpeek.lua",
                 "share/linkpeek/editors/emacs/linkpeek.el", "share/linkpeek/editors/vscode/package.json",
                 "README.md", "LICENSE", "Package.resolved"]:
        assert f"{top}/{path}" in names, f"{path} missing from {tarball.name}"
    assert not any("/tests/" in name or "/test/" in name for name in names), "editor test suites were packed"


def test_the_release_records_every_package_it_was_built_from(tmp_path):
    # Package.swift's dependencies, by URL; the packed Package.resolved must pin
    # each one to a version and a 40-hex revision.
    manifest = (ROOT / "Package.swift").read_text()
    urls = set(re.findall(r'\.package\(url: "([^"]+)"', manifest))
    assert urls, "no .package(url:) in Package.swift"
    tarball = only("linkpeek-*-linux-*.tar.gz")
    top = tarball.name[: -len(".tar.gz")]
    with tarfile.open(tarball) as archive:
        member = archive.extractfile(f"{top}/Package.resolved")
        packed = json.loads(member.read())
    pins = {pin["location"].removesuffix(".git"): pin["state"] for pin in packed["pins"]}
    for url in urls:
        assert url in pins, f"{url} is not pinned in the packed Package.resolved"
        assert re.fullmatch(r"[0-9a-f]{40}", pins[url].get("revision", "")), pins[url]
        assert re.fullmatch(r"\d+\.\d+\.\d+", pins[url].get("version", "")), pins[url]
    deb = only("linkpeek_*.deb")
    run("dpkg-deb", "-x", str(deb), str(tmp_path / "root"))
    assert json.loads((tmp_path / "root/usr/share/doc/linkpeek/Package.resolved").read_text()) == packed


def test_man_page_documents_every_subcommand(binary):
    page = binary.parent.parent / "share/man/man1/linkpeek.1"
    text = run("man", "-l", "-P", "cat", str(page), env={**os.environ, "MANWIDTH": "100"}).stdout
    for command in ["fetch", "parse", "serve", "cache", "saved", "image"]:
        assert f"linkpeek {command}" in text, f"man page lacks linkpeek {command}"
        help_text = run(str(binary), command, "--help").stdout
        first_line = help_text.splitlines()[0].removeprefix("OVERVIEW: ").strip()
        assert " ".join(first_line.split()[:4]) in " ".join(text.split()), f"{command}'s abstract is not in the man page"


def test_deb_depends_on_exactly_the_libraries_it_links(binary):
    deb = only("linkpeek_*.deb")
    fields = run("dpkg-deb", "-f", str(deb), "Depends", "Recommends", "Suggests", "Package", "Architecture").stdout
    control = dict(line.split(": ", 1) for line in fields.splitlines())
    assert control["Package"] == "linkpeek"
    assert control["Architecture"] == run("dpkg", "--print-architecture").stdout.strip()
    depends = {item.split(" ")[0] for item in control["Depends"].split(", ")}
    needed = [line.split()[1] for line in run("objdump", "-p", str(binary)).stdout.splitlines()
              if line.strip().startswith("NEEDED")]
    paths = dict(ldd_paths(binary))
    linked = {owning_package(paths[name]) for name in needed}
    # libcurl4: opened on first use, but no fetch works without it.
    assert depends == linked | {"libcurl4"}, f"Depends {sorted(depends)} != linked {sorted(linked)} + libcurl4"
    assert control["Recommends"] == "libvips42"
    # hiredis: opened only with --fleet.
    assert control["Suggests"] == "libhiredis0.14"


def test_deb_puts_files_in_debian_places():
    deb = only("linkpeek_*.deb")
    listing = run("dpkg-deb", "-c", str(deb)).stdout
    for path in ["./usr/bin/linkpeek", "./usr/share/man/man1/linkpeek.1.gz",
                 "./usr/share/bash-completion/completions/linkpeek", "./usr/share/zsh/vendor-completions/_linkpeek",
                 "./usr/share/fish/vendor_completions.d/linkpeek.fish", "./usr/share/doc/linkpeek/copyright",
                 "./usr/share/linkpeek/editors/neovim/plugin/linkpeek.lua",
                 "./usr/share/linkpeek/editors/emacs/linkpeek.el",
                 "./usr/share/linkpeek/editors/vscode/package.json",
                 "./lib/systemd/system/linkpeek-http.service"]:
        assert re.search(r"\s" + re.escape(path) + r"$", listing, re.M), f"{path} missing from {deb.name}"
    assert re.search(r"^-rwxr-xr-x root/root .* \./usr/bin/linkpeek$", listing, re.M), listing


def test_deb_ships_the_http_service_disabled_and_verified(binary, tmp_path):
    deb = only("linkpeek_*.deb")
    run("dpkg-deb", "-x", str(deb), str(tmp_path / "root"))
    control = run("dpkg-deb", "-I", str(deb)).stdout
    # No postinst (or other maintainer script) that could enable or start it.
    assert not re.search(r"\b(postinst|prerm|postrm|preinst)\b", control), control
    unit = (tmp_path / "root/lib/systemd/system/linkpeek-http.service").read_text()
    for line in ["DynamicUser=yes", "ProtectSystem=strict", "StateDirectory=linkpeek-http",
                 "ExecStart=/usr/bin/linkpeek serve --http 127.0.0.1:8080 --cache-dir /var/lib/linkpeek-http"]:
        assert line in unit.splitlines(), line
    # systemd-analyze checks that ExecStart is executable: the unit as installed, pointing at the unpacked binary.
    check = tmp_path / "check" / "linkpeek-http.service"
    check.parent.mkdir()
    check.write_text(unit.replace("/usr/bin/linkpeek", str(binary)))
    verify = subprocess.run(["systemd-analyze", "verify", str(check)], capture_output=True, text=True, timeout=60)
    assert (verify.returncode, verify.stdout + verify.stderr) == (0, "")


def test_completions_come_from_the_binary(binary):
    share = binary.parent.parent / "share"
    for shell, path in [("bash", "bash-completion/completions/linkpeek"), ("zsh", "zsh/site-functions/_linkpeek"),
                        ("fish", "fish/vendor_completions.d/linkpeek.fish")]:
        expected = run(str(binary), "--generate-completion-script", shell).stdout
        assert (share / path).read_text() == expected, f"{path} is not what the binary generates"


def test_core_integration_tests_pass_from_another_directory(binary, tmp_path):
    env = {**os.environ, "LINKPEEK_BIN": str(binary), "LD_LIBRARY_PATH": ""}
    tests = [str(ROOT / "Tests/integration" / test) for test in CORE_TESTS]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT / "Tests/integration"),
         "-c", str(ROOT / "Tests/integration/pytest.ini"), *tests],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = result.stdout.strip().splitlines()[-1]
    # Every selected test ran (parametrised ones count once per case): none skipped, none deselected.
    assert re.fullmatch(r"\d+ passed in .*", summary), summary
    assert int(summary.split()[0]) >= len(CORE_TESTS), summary
