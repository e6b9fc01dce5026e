#!/bin/sh
# Writes Sources/CBuildInfo/commit.h with the checkout's git commit (for
# `linkpeek --version`), only when it changed, so that a build recompiles one
# C file. Without git or outside a checkout it removes the file: the binary
# then says "unknown".
set -eu
cd "$(dirname "$0")/.."
header=Sources/CBuildInfo/commit.h
if commit=$(git rev-parse --short=12 HEAD 2>/dev/null); then
    git diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
    line="#define LINKPEEK_COMMIT \"$commit\""
    if [ ! -f "$header" ] || [ "$(cat "$header")" != "$line" ]; then
        printf '%s\n' "$line" > "$header"
    fi
else
    rm -f "$header"
fi
