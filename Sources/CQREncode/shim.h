/* CQREncode: libqrencode, which turns the join card's texts into QR symbols. */
#include <qrencode.h>
