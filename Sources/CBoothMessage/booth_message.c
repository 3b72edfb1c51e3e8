/* booth_message: the header's functions are inline; this file makes the target a C library SwiftPM builds. */
#include "booth_message.h"
