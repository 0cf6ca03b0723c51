#ifndef GATEHOUSE_CSQLITE_H
#define GATEHOUSE_CSQLITE_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a macro over a cast function pointer that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
