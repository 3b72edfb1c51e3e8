#!/bin/bash
# Syntax-check the libcamera shim against the public headers of other libcamera releases.
# Usage: Scripts/check-libcamera-api.sh <libcamera git checkout> <tag>...   e.g. v0.1.0 v0.5.2 v0.7.1
# Generates each tag's headers (needs python3 with yaml and jinja2) under a temp dir; no build, no link.
set -u
repo=$1
shift
shim_dir=$(cd "$(dirname "$0")/../Sources/LibcameraShim" && pwd)
status=0

# Print the first of the given paths that exists.
first_existing() {
	for path in "$@"; do [ -e "$path" ] && echo "$path" && return; done
}
for tag in "$@"; do
	work=$(mktemp -d)
	out=$work/out/libcamera
	mkdir -p "$work/src" "$out"
	git -C "$repo" archive "$tag" include utils src/libcamera | tar x -C "$work/src" 2>/dev/null
	(
		cd "$work/src" || exit 1
		cp -r include/libcamera/* "$out/"
		gen_controls=$(first_existing utils/codegen/gen-controls.py utils/gen-controls.py)
		gen_formats=$(first_existing utils/codegen/gen-formats.py utils/gen-formats.py)
		# Older releases have one yaml per kind; newer split core and draft.
		controls=("$(first_existing src/libcamera/control_ids_core.yaml src/libcamera/control_ids.yaml)")
		[ -f src/libcamera/control_ids_draft.yaml ] && controls+=(src/libcamera/control_ids_draft.yaml)
		properties=("$(first_existing src/libcamera/property_ids_core.yaml src/libcamera/property_ids.yaml)")
		[ -f src/libcamera/property_ids_draft.yaml ] && properties+=(src/libcamera/property_ids_draft.yaml)
		ranges=()
		[ -f src/libcamera/control_ranges.yaml ] && ranges=(-r src/libcamera/control_ranges.yaml)
		property_template=include/libcamera/control_ids.h.in
		[ -f include/libcamera/property_ids.h.in ] && property_template=include/libcamera/property_ids.h.in
		if python3 "$gen_controls" --help 2>&1 | grep -q -- --mode; then
			python3 "$gen_controls" -o "$out/control_ids.h" --mode controls -t include/libcamera/control_ids.h.in \
				"${ranges[@]}" "${controls[@]}"
			python3 "$gen_controls" -o "$out/property_ids.h" --mode properties -t "$property_template" \
				"${ranges[@]}" "${properties[@]}"
		else # up to 0.1: gen-controls.py -o out yaml... template
			python3 "$gen_controls" -o "$out/control_ids.h" "${controls[@]}" include/libcamera/control_ids.h.in
			python3 "$gen_controls" -o "$out/property_ids.h" "${properties[@]}" "$property_template"
		fi
		python3 "$gen_formats" -o "$out/formats.h" src/libcamera/formats.yaml include/libcamera/formats.h.in \
			include/linux/drm_fourcc.h
		IFS=. read -r major minor patch <<<"${tag#v}"
		sed -e "s/@LIBCAMERA_VERSION_MAJOR@/$major/;s/@LIBCAMERA_VERSION_MINOR@/$minor/" \
			-e "s/@LIBCAMERA_VERSION_PATCH@/${patch:-0}/" include/libcamera/version.h.in >"$out/version.h"
		cd "$out" || exit 1
		headers=(*.h)
		{
			echo "#pragma once"
			for header in "${headers[@]}"; do echo "#include <libcamera/$header>"; done
		} >libcamera.h
	) >/dev/null 2>&1
	if clang++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I"$work/out" -I"$shim_dir/include" \
		"$shim_dir/booth_camera.cpp"; then
		echo "$tag: ok"
	else
		echo "$tag: FAILED"
		status=1
	fi
	rm -rf "$work"
done
exit $status
