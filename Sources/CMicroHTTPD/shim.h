#ifndef GATEHOUSE_CMICROHTTPD_H
#define GATEHOUSE_CMICROHTTPD_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
