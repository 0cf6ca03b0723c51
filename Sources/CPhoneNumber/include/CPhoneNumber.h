#ifndef GATEHOUSE_CPHONENUMBER_H
#define GATEHOUSE_CPHONENUMBER_H
#ifdef __cplusplus
extern "C" {
#endif
/// Placeholder until the phone-number bridge lands.
int cphonenumber_version(void);
#ifdef __cplusplus
}
#endif
#endif
