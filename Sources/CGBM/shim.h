#include <gbm.h>
