#include "CGpioShim.h"
#include <gpiod.h>
int bk_gpio_shim_version(void) { return 1; }
