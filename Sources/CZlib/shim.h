/* CZlib: zlib's crc32, for Checksum's CRC32 (zlib1g is on every Debian system). */
#include <zlib.h>
