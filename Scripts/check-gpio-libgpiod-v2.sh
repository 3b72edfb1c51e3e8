#!/bin/sh
# check-gpio-libgpiod-v2: builds the CGPIOD shim and runs the GPIO tests against libgpiod v2
# compiled from source, on a host whose system libgpiod is v1 (e.g. Debian 12).
#
# Usage: Scripts/check-gpio-libgpiod-v2.sh LIBGPIOD_V2_SOURCE_DIR [VERSION]
#   LIBGPIOD_V2_SOURCE_DIR holds include/gpiod.h and lib/*.c of a libgpiod 2.x release
#   (e.g. `git archive v2.2.4 include lib` of https://github.com/brgl/libgpiod).
set -eu

source_dir=${1:?usage: $0 LIBGPIOD_V2_SOURCE_DIR [VERSION]}
version=${2:-2.x}
package_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(mktemp -d)
trap 'rm -rf "$build_dir"' EXIT

printf '#define GPIOD_VERSION_STR "%s"\n#define _GNU_SOURCE 1\n' "$version" >"$build_dir/config.h"
for source in "$source_dir"/lib/*.c; do
    cc -std=gnu89 -O1 -fPIC -I"$source_dir/include" -I"$source_dir/lib" \
        -include "$build_dir/config.h" -c "$source" -o "$build_dir/$(basename "$source" .c).o"
done
ar rcs "$build_dir/libgpiod.a" "$build_dir"/*.o

# -I wins over /usr/include/gpiod.h (v1); the static v2 library wins over the system .so.
cd "$package_dir"
swift test --scratch-path .build-gpio-v2 \
    -Xcc -I"$source_dir/include" -Xlinker -L"$build_dir" --filter GPIOInputTests
nm .build-gpio-v2/debug/CGPIOD.build/booth_gpio_v2.c.o | grep -q ' T booth_gpio_request_lines' ||
    { echo "error: the v2 backend was not compiled" >&2; exit 1; }
echo "libgpiod $version: CGPIOD v2 backend compiled, linked and tested"
