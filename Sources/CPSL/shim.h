#ifndef GATEHOUSE_CPSL_H
#define GATEHOUSE_CPSL_H
#include <libpsl.h>
#endif
