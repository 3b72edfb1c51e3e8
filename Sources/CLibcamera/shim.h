/* CLibcamera: carries pkg-config libcamera's flags (-I/usr/include/libcamera, -lcamera -lcamera-base)
 * to LibcameraShim. libcamera's C++ headers are included only by the shim, never through this module. */
