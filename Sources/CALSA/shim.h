// CALSA: exposes alsa-lib (libasound) to Swift. Only SoundOutput/ALSA*.swift may import it.
#ifndef BOOTH_CALSA_SHIM_H
#define BOOTH_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
