#!/bin/sh
# Packs a release binary into the tarball and the .deb (`make dist`), or
# lays out the same tree under a prefix (`make install`).
#
#   dist.sh tree    BINARY DIR      the tarball's tree in DIR
#   dist.sh tarball DIR OUT.tar.gz  DIR (made by `tree`) packed
#   dist.sh deb     DIR OUT.deb     the .deb, from DIR's files in Debian's places
#   dist.sh depends BINARY          the Depends: line for BINARY (see below)
#
# Needs only what Debian 12 has with Swift's prerequisites: sh, tar, gzip,
# python3, objdump (binutils) and dpkg.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' "$root/Sources/LinkPeek/Engine/Settings.swift")
[ -n "$version" ] || { echo "dist.sh: no 'static let version' found in Sources/LinkPeek/Engine/Settings.swift" >&2; exit 1; }

# The plugins' own folders, without their test suites.
copy_editors() {
    mkdir -p "$1"
    cp "$root/editors/README.md" "$1/"
    for plugin in neovim emacs vscode; do
        (cd "$root/editors" && find "$plugin" -type f \
            ! -path "*/tests/*" ! -path "*/test/*" ! -path "*/node_modules/*" ! -name "*.elc") |
        while read -r file; do
            mkdir -p "$1/$(dirname "$file")"
            cp "$root/editors/$file" "$1/$file"
        done
    done
}

# Depends: the Debian packages that own the libraries the binary names
# (NEEDED), each with the minimum version its shlibs file gives, plus libcurl4:
# libcurl is opened on first use (idle memory), but every fetch needs it.
depends() {
    binary=$1
    found=""
    for soname in $(objdump -p "$binary" | awk '/NEEDED/ { print $2 }'); do
        # "name => path (address)", or for the dynamic loader "path (address)".
        path=$(ldd "$binary" | awk -v name="$soname" '$1 == name && $2 == "=>" { print $3 }
            $2 != "=>" && $1 ~ ("/" name "$") { print $1 }')
        [ -n "$path" ] || { echo "dist.sh: ldd does not find $soname" >&2; exit 1; }
        package=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true)
        package=$(printf '%s\n' "$package" | head -n 1 | cut -d: -f1)
        [ -n "$package" ] || { echo "dist.sh: no Debian package owns $path ($soname)" >&2; exit 1; }
        base=$(printf '%s' "$soname" | sed 's/\.so\..*//; s/\.so$//')
        major=$(printf '%s' "$soname" | sed -n 's/.*\.so\.\([0-9]*\).*/\1/p')
        shlibs=$(cat /var/lib/dpkg/info/"$package".shlibs /var/lib/dpkg/info/"$package":*.shlibs 2>/dev/null |
            awk -v lib="$base" -v major="$major" \
                '$1 == lib && $2 == major { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
        found="$found${shlibs:-$package}
"
    done
    printf '%slibcurl4 (>= 7.88.1)\n' "$found" | sort -u | paste -sd, - | sed 's/,/, /g'
}

tree() {
    binary=$1 dir=$2
    rm -rf "$dir"
    mkdir -p "$dir/bin" "$dir/share/man/man1" "$dir/share/bash-completion/completions" \
        "$dir/share/zsh/site-functions" "$dir/share/fish/vendor_completions.d"
    cp "$binary" "$dir/bin/linkpeek"
    # Symbols and debug information stay in .build's copy (as Debian strips its
    # binaries): 37 MB unstripped, 18 MB shipped.
    strip --strip-all "$dir/bin/linkpeek"
    python3 "$root/scripts/manpage.py" "$dir/bin/linkpeek" "$dir/share/man/man1/linkpeek.1" \
        --date "$(git -C "$root" log -1 --format=%cs 2>/dev/null || date -u +%F)"
    "$dir/bin/linkpeek" --generate-completion-script bash > "$dir/share/bash-completion/completions/linkpeek"
    "$dir/bin/linkpeek" --generate-completion-script zsh > "$dir/share/zsh/site-functions/_linkpeek"
    "$dir/bin/linkpeek" --generate-completion-script fish > "$dir/share/fish/vendor_completions.d/linkpeek.fish"
    copy_editors "$dir/share/linkpeek/editors"
    # The HTTP service's systemd unit (protocol/http.md); the .deb installs it disabled.
    mkdir -p "$dir/share/linkpeek/systemd"
    cp "$root/scripts/systemd/linkpeek-http.service" "$dir/share/linkpeek/systemd/"
    cp "$root/README.md" "$root/LICENSE" "$dir/"
    # What the release was built from: every Swift package's version and
    # revision, as the build resolved them (Sources/README.md, "What a release
    # is built from").
    [ -f "$root/Package.resolved" ] || { echo "dist.sh: no Package.resolved: build first" >&2; exit 1; }
    cp "$root/Package.resolved" "$dir/"
}

tarball() {
    dir=$1 out=$2
    # Owner and times fixed, so that the same tree packs to the same bytes.
    tar -C "$(dirname "$dir")" --owner=0 --group=0 --numeric-owner --sort=name \
        --mtime="@$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)" \
        -cf - "$(basename "$dir")" | gzip -9n > "$out"
}

deb() {
    dir=$1 out=$2
    arch=$(dpkg --print-architecture)
    stage="$out.stage"
    rm -rf "$stage"
    mkdir -p "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/share/man/man1" \
        "$stage/usr/share/bash-completion/completions" "$stage/usr/share/zsh/vendor-completions" \
        "$stage/usr/share/fish/vendor_completions.d" "$stage/usr/share/doc/linkpeek" "$stage/usr/share/linkpeek"
    cp "$dir/bin/linkpeek" "$stage/usr/bin/"
    gzip -9n < "$dir/share/man/man1/linkpeek.1" > "$stage/usr/share/man/man1/linkpeek.1.gz"
    cp "$dir/share/bash-completion/completions/linkpeek" "$stage/usr/share/bash-completion/completions/"
    cp "$dir/share/zsh/site-functions/_linkpeek" "$stage/usr/share/zsh/vendor-completions/"
    cp "$dir/share/fish/vendor_completions.d/linkpeek.fish" "$stage/usr/share/fish/vendor_completions.d/"
    cp -R "$dir/share/linkpeek/editors" "$stage/usr/share/linkpeek/"
    # No maintainer script enables or starts it: installed, it stays disabled.
    mkdir -p "$stage/lib/systemd/system"
    cp "$dir/share/linkpeek/systemd/linkpeek-http.service" "$stage/lib/systemd/system/"
    gzip -9n < "$dir/README.md" > "$stage/usr/share/doc/linkpeek/README.md.gz"
    cp "$dir/Package.resolved" "$stage/usr/share/doc/linkpeek/"
    {
        echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
        echo "Upstream-Name: linkpeek"
        echo
        echo "Files: *"
        echo "Copyright: linkpeek authors"
        echo "License: MIT"
        sed 's/^$/./; s/^/ /' "$root/LICENSE"
    } > "$stage/usr/share/doc/linkpeek/copyright"
    size=$(du -sk "$stage/usr" | cut -f1)
    needs=$(depends "$dir/bin/linkpeek")
    cat > "$stage/DEBIAN/control" <<CONTROL
Package: linkpeek
Version: $version
Architecture: $arch
Maintainer: linkpeek authors <linkpeek@localhost>
Installed-Size: $size
Depends: $needs
Recommends: libvips42
Suggests: libhiredis0.14
Section: utils
Priority: optional
Description: link previews for Linux: a daemon, an LSP server and a CLI
 Give it a URL, get back a rich preview: title, summary, site name, icon,
 image and video, cached on disk. It runs as a JSON-RPC/LSP daemon for
 editors (plugins for Neovim, Emacs and VS Code are in
 /usr/share/linkpeek/editors), as a one-shot command for scripts, and as an
 HTTP service (linkpeek-http.service, installed disabled).
 libvips (recommended) is needed only for images (linkpeek image, getMedia);
 hiredis (suggested) only for fleet mode (--fleet: a cache shared over Redis).
CONTROL
    find "$stage" -type d -exec chmod 0755 {} +
    find "$stage/usr" "$stage/lib" -type f -exec chmod 0644 {} +
    chmod 0755 "$stage/usr/bin/linkpeek"
    dpkg-deb --root-owner-group -Zxz --build "$stage" "$out" >/dev/null
    rm -rf "$stage"
}

command=${1:-}
shift || true
case "$command" in
    tree) tree "$@" ;;
    tarball) tarball "$@" ;;
    deb) deb "$@" ;;
    depends) depends "$@" ;;
    version) echo "$version" ;;
    *) echo "usage: dist.sh tree|tarball|deb|depends|version ..." >&2; exit 2 ;;
esac
