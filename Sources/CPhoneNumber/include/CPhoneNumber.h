#ifndef GATEHOUSE_CPHONENUMBER_H
#define GATEHOUSE_CPHONENUMBER_H

/*
 * A plain C view of libphonenumber's PhoneNumberUtil so Swift can use it
 * without C++ interop. Every function is thread-safe (the library instance is
 * a process-wide singleton whose lookups are const), never lets a C++
 * exception escape, and writes only into caller-owned memory.
 */

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by the functions below. */
#define CPN_OK 0
#define CPN_ERR_INVALID_COUNTRY_CODE 1 /* unknown calling code, or no '+' and no usable default region */
#define CPN_ERR_NOT_A_NUMBER 2         /* input does not look like a phone number at all */
#define CPN_ERR_TOO_SHORT_AFTER_IDD 3  /* nothing usable after an international dialling prefix */
#define CPN_ERR_TOO_SHORT_NSN 4        /* national significant number shorter than any possible one */
#define CPN_ERR_TOO_LONG 5             /* national significant number or input longer than allowed */
#define CPN_ERR_INVALID_ARGUMENT 6     /* NULL pointer or undersized buffer from the caller */
#define CPN_ERR_INTERNAL 7             /* the library threw or produced output that does not fit */

/* Number types, mirroring PhoneNumberUtil::PhoneNumberType with stable values. */
#define CPN_TYPE_UNKNOWN 0
#define CPN_TYPE_FIXED_LINE 1
#define CPN_TYPE_MOBILE 2
#define CPN_TYPE_FIXED_LINE_OR_MOBILE 3
#define CPN_TYPE_TOLL_FREE 4
#define CPN_TYPE_PREMIUM_RATE 5
#define CPN_TYPE_SHARED_COST 6
#define CPN_TYPE_VOIP 7
#define CPN_TYPE_PERSONAL_NUMBER 8
#define CPN_TYPE_PAGER 9
#define CPN_TYPE_UAN 10
#define CPN_TYPE_VOICEMAIL 11

/* Buffer sizes include the terminating NUL. The library caps a national
 * significant number at 17 digits and a calling code at 3, so 32 bytes is
 * ample for both E.164 and the national number. */
#define CPN_E164_SIZE 32
#define CPN_NATIONAL_SIZE 32
#define CPN_REGION_SIZE 8

/* One parsed number. Strings are always NUL-terminated. */
typedef struct cpn_number {
    char e164[CPN_E164_SIZE];              /* e.g. "+447700900123" */
    char national_number[CPN_NATIONAL_SIZE]; /* national significant number, leading zeros kept (Italy) */
    char region[CPN_REGION_SIZE];          /* ISO 3166 alpha-2, "001" for non-geographic, "ZZ" if unknown */
    int country_code;                      /* e.g. 44 */
    int line_type;                         /* one of CPN_TYPE_* */
    bool is_valid;                         /* PhoneNumberUtil::IsValidNumber */
    bool is_possible;                      /* PhoneNumberUtil::IsPossibleNumber */
    int destination_code_length;           /* GetLengthOfNationalDestinationCode: the leading digits
                                              of national_number that name the area or mobile
                                              network (0 when the plan has none) */
} cpn_number;

/*
 * Parses `input_len` bytes of UTF-8 at `input`. `default_region` is an ISO
 * 3166 alpha-2 code (case-insensitive) used when the input has no leading
 * '+'; NULL or "" means the input must be international. On success returns
 * CPN_OK and fills `out`; on failure returns a CPN_ERR_* code and leaves `out`
 * zeroed.
 */
int cpn_parse(const char *input, size_t input_len, const char *default_region, cpn_number *out);

/*
 * Writes the main region for a country calling code (e.g. 44 -> "GB", 1 ->
 * "US", 800 -> "001") into `out`. Returns CPN_ERR_INVALID_COUNTRY_CODE for
 * codes the library does not know.
 */
int cpn_region_for_country_code(int country_code, char *out, size_t out_size);

/* True if `region` (case-insensitive ISO 3166 alpha-2) has phone metadata. */
bool cpn_is_valid_region(const char *region);

#ifdef __cplusplus
}
#endif

#endif
