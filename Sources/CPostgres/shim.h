#ifndef GATEHOUSE_CPOSTGRES_H
#define GATEHOUSE_CPOSTGRES_H
#include <libpq-fe.h>
#endif
