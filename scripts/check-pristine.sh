#!/bin/sh
# `make check-pristine`: the README's install commands in a fresh Debian 12
# root made with debootstrap (no Swift, nothing from this machine): the .deb
# with `apt-get install ./…deb`, then the tarball in a second fresh root with
# only the run-time libraries the README names; in each, linkpeek fetch,
# serve with an LSP hover, image and man (scripts/pristine_checks.py).
# Needs root and Debian's mirror; run by hand, not in `make test`.
#
# usage: check-pristine.sh DEB TARBALL
#   PRISTINE_DIR (default .build/pristine) keeps the debootstrapped base as
#   base.tar.gz, reused by later runs; MIRROR overrides the Debian mirror.
set -eu
deb=$1 tarball=$2
root_dir=$(cd "$(dirname "$0")/.." && pwd)
work=${PRISTINE_DIR:-$root_dir/.build/pristine}
mirror=${MIRROR:-http://deb.debian.org/debian}
if [ "$(id -u)" != 0 ]; then
    echo "check-pristine needs root (debootstrap, chroot, mount): run it as root or with sudo." >&2
    exit 1
fi
command -v debootstrap >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
}
mkdir -p "$work"
started=$(date +%s)

if [ ! -f "$work/base.tar.gz" ]; then
    echo "== debootstrap bookworm (minbase) into $work/base"
    rm -rf "$work/base"
    debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log" >&2; exit 1; }
    tar -C "$work/base" -czf "$work/base.tar.gz" .
    rm -rf "$work/base"
fi

mounted=""
cleanup() {
    for point in $mounted; do umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

# A fresh root from the base, with /proc and /dev, and the host's resolver.
fresh() {
    target=$work/$1
    for point in "$target/proc" "$target/dev"; do
        mountpoint -q "$point" 2>/dev/null && umount "$point"
    done
    rm -rf "$target"
    mkdir -p "$target"
    tar -C "$target" -xzf "$work/base.tar.gz"
    mount -t proc proc "$target/proc" && mounted="$target/proc $mounted"
    mount --bind /dev "$target/dev" && mounted="$target/dev $mounted"
    cp /etc/resolv.conf "$target/etc/resolv.conf"
    chroot "$target" apt-get update -qq
}

apt_in() {
    target=$1
    shift
    chroot "$target" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

failed=0

echo "== the .deb: apt-get install ./$(basename "$deb")"
fresh deb-root
cp "$deb" "$work/deb-root/tmp/"
# man-db: `man` itself (a user's system has it; minbase does not).
apt_in "$work/deb-root" "/tmp/$(basename "$deb")" man-db
python3 "$root_dir/scripts/pristine_checks.py" "$work/deb-root" linkpeek || failed=1
if chroot "$work/deb-root" sh -c 'ls /opt/swift /usr/lib/swift' >/dev/null 2>&1; then
    echo "FAIL a Swift toolchain is in the root"; failed=1
fi

echo "== the tarball, unpacked into /opt/linkpeek, with the run-time libraries the README names"
fresh tar-root
apt_in "$work/tar-root" libcurl4 libxml2 libsqlite3-0 libvips42 man-db
mkdir -p "$work/tar-root/opt/linkpeek"
tar -xzf "$tarball" -C "$work/tar-root/opt/linkpeek" --strip-components=1
python3 "$root_dir/scripts/pristine_checks.py" "$work/tar-root" /opt/linkpeek/bin/linkpeek || failed=1

echo "== check-pristine took $(( $(date +%s) - started )) s"
[ "$failed" = 0 ] && echo "== all checks passed" || echo "== some checks FAILED"
exit "$failed"
