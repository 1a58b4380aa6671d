/* config.h - moved to config/config.h; this forwarding header goes with the include rename. */
#include "config/config.h"
