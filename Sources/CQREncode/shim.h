#ifndef GATEHOUSE_CQRENCODE_H
#define GATEHOUSE_CQRENCODE_H
#include <qrencode.h>
#endif
