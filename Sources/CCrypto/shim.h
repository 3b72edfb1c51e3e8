/* CCrypto: OpenSSL's libcrypto message digests (EVP), for Checksum's SHA256 (libssl3 is on every Debian and
 * Raspberry Pi OS system: systemd needs it). Its SHA-256 uses the CPU's SHA instructions where there are some. */
#include <openssl/evp.h>
