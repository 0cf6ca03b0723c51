#include "CPhoneNumber.h"
#include <phonenumbers/phonenumberutil.h>
extern "C" int cphonenumber_version(void) { return 1; }
