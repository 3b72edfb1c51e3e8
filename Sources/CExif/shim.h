/* CExif: the parts of libexif used to build and read the EXIF APP1 segment. */
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-content.h>
#include <libexif/exif-mem.h>
#include <libexif/exif-utils.h>
