// Every libgpiod call lives behind this header so the rest builds against libgpiod 1.6 (Debian 12)
// and 2.x alike. Filled in by the Buttons work.
#ifndef BACKDROP_CGPIOSHIM_H
#define BACKDROP_CGPIOSHIM_H
int bk_gpio_shim_version(void);
#endif
