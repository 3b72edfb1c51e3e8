/* CGPhoto2: exposes libgphoto2 (cameras over USB: DSLRs, mirrorless, PTP) to Swift. Only GPhotoCamera calls it. */
#ifndef BOOTH_CGPHOTO2_SHIM_H
#define BOOTH_CGPHOTO2_SHIM_H
#include <gphoto2/gphoto2.h>
#include <gphoto2/gphoto2-port-result.h>
#endif
