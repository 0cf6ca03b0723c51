#include "CPhoneNumber.h"

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstring>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

// The library's region table is keyed by upper-case codes; callers (and HTTP
// clients) routinely send "gb", so normalise rather than reject.
std::string upperRegion(const char *region) {
    std::string out = region ? region : "";
    for (char &c : out) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return out;
}

// Copies `value` including its NUL; refuses rather than truncates, because a
// truncated E.164 string would silently name a different subscriber.
bool copyOut(const std::string &value, char *out, size_t out_size) {
    if (value.size() + 1 > out_size) return false;
    std::memcpy(out, value.c_str(), value.size() + 1);
    return true;
}

int statusFor(PhoneNumberUtil::ErrorType error) {
    switch (error) {
    case PhoneNumberUtil::NO_PARSING_ERROR: return CPN_OK;
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: return CPN_ERR_INVALID_COUNTRY_CODE;
    case PhoneNumberUtil::NOT_A_NUMBER: return CPN_ERR_NOT_A_NUMBER;
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD: return CPN_ERR_TOO_SHORT_AFTER_IDD;
    case PhoneNumberUtil::TOO_SHORT_NSN: return CPN_ERR_TOO_SHORT_NSN;
    case PhoneNumberUtil::TOO_LONG_NSN: return CPN_ERR_TOO_LONG;
    }
    return CPN_ERR_INTERNAL;
}

// Explicit mapping so the C values stay stable even if the library reorders
// its enum in a later release.
int lineTypeFor(PhoneNumberUtil::PhoneNumberType type) {
    switch (type) {
    case PhoneNumberUtil::FIXED_LINE: return CPN_TYPE_FIXED_LINE;
    case PhoneNumberUtil::MOBILE: return CPN_TYPE_MOBILE;
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE: return CPN_TYPE_FIXED_LINE_OR_MOBILE;
    case PhoneNumberUtil::TOLL_FREE: return CPN_TYPE_TOLL_FREE;
    case PhoneNumberUtil::PREMIUM_RATE: return CPN_TYPE_PREMIUM_RATE;
    case PhoneNumberUtil::SHARED_COST: return CPN_TYPE_SHARED_COST;
    case PhoneNumberUtil::VOIP: return CPN_TYPE_VOIP;
    case PhoneNumberUtil::PERSONAL_NUMBER: return CPN_TYPE_PERSONAL_NUMBER;
    case PhoneNumberUtil::PAGER: return CPN_TYPE_PAGER;
    case PhoneNumberUtil::UAN: return CPN_TYPE_UAN;
    case PhoneNumberUtil::VOICEMAIL: return CPN_TYPE_VOICEMAIL;
    case PhoneNumberUtil::UNKNOWN: return CPN_TYPE_UNKNOWN;
    }
    return CPN_TYPE_UNKNOWN;
}

// GetLengthOfNationalDestinationCode with the number's type already known:
// the digit group after the country code in the international format, or,
// for a mobile number of a country with a mobile token (Argentina's 9), the
// group after that and the token; 0 when the format has fewer than three.
int destinationCodeLength(const PhoneNumberUtil &util, const PhoneNumber &number, PhoneNumberUtil::PhoneNumberType type) {
    PhoneNumber copied(number);
    copied.clear_extension();
    std::string formatted;
    util.Format(copied, PhoneNumberUtil::INTERNATIONAL, &formatted);
    size_t groups[3] = {0, 0, 0};
    size_t found = 0, run = 0;
    for (size_t i = 0; i <= formatted.size() && found < 3; ++i) {
        if (i < formatted.size() && formatted[i] >= '0' && formatted[i] <= '9') {
            ++run;
        } else if (run > 0) {
            groups[found++] = run;
            run = 0;
        }
    }
    if (found < 3) return 0;
    if (type == PhoneNumberUtil::MOBILE) {
        std::string token;
        util.GetCountryMobileToken(number.country_code(), &token);
        if (!token.empty()) return static_cast<int>(groups[2] + token.size());
    }
    return static_cast<int>(groups[1]);
}

int parseInto(const char *input, size_t input_len, const char *default_region, cpn_number *out) {
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    std::string region = upperRegion(default_region);
    // "ZZ" is the library's unknown region: parsing then succeeds only for
    // input that carries its own country calling code.
    if (region.empty()) region = "ZZ";

    PhoneNumber number;
    int status = statusFor(util.Parse(std::string(input, input_len), region, &number));
    if (status != CPN_OK) return status;

    std::string e164, national, numberRegion;
    util.Format(number, PhoneNumberUtil::E164, &e164);
    util.GetNationalSignificantNumber(number, &national);
    util.GetRegionCodeForNumber(number, &numberRegion);
    if (!copyOut(e164, out->e164, sizeof out->e164) ||
        !copyOut(national, out->national_number, sizeof out->national_number) ||
        !copyOut(numberRegion, out->region, sizeof out->region)) {
        return CPN_ERR_INTERNAL;
    }
    // The type is found once: each of IsValidNumber, GetNumberType and
    // GetLengthOfNationalDestinationCode would match the number against its
    // region's patterns again, which is most of a parse's cost.
    const PhoneNumberUtil::PhoneNumberType type = util.GetNumberType(number);
    out->country_code = number.country_code();
    out->line_type = lineTypeFor(type);
    // IsValidNumber is IsValidNumberForRegion with the number's own region,
    // which holds exactly when that region's patterns give it a type.
    out->is_valid = type != PhoneNumberUtil::UNKNOWN;
    out->is_possible = util.IsPossibleNumber(number);
    out->destination_code_length = destinationCodeLength(util, number, type);
    return CPN_OK;
}

} // namespace

extern "C" int cpn_parse(const char *input, size_t input_len, const char *default_region, cpn_number *out) {
    if (out == nullptr) return CPN_ERR_INVALID_ARGUMENT;
    std::memset(out, 0, sizeof *out);
    if (input == nullptr && input_len != 0) return CPN_ERR_INVALID_ARGUMENT;
    try {
        int status = parseInto(input ? input : "", input_len, default_region, out);
        // A failure part-way through filling `out` must not leave a half
        // number behind for a caller that ignores the status.
        if (status != CPN_OK) std::memset(out, 0, sizeof *out);
        return status;
    } catch (...) {
        std::memset(out, 0, sizeof *out);
        return CPN_ERR_INTERNAL;
    }
}

extern "C" int cpn_region_for_country_code(int country_code, char *out, size_t out_size) {
    if (out == nullptr || out_size == 0) return CPN_ERR_INVALID_ARGUMENT;
    out[0] = '\0';
    try {
        std::string region;
        PhoneNumberUtil::GetInstance()->GetRegionCodeForCountryCode(country_code, &region);
        // The library answers "ZZ" (its unknown region) for unassigned codes.
        if (region.empty() || region == "ZZ") return CPN_ERR_INVALID_COUNTRY_CODE;
        return copyOut(region, out, out_size) ? CPN_OK : CPN_ERR_INVALID_ARGUMENT;
    } catch (...) {
        out[0] = '\0';
        return CPN_ERR_INTERNAL;
    }
}

extern "C" bool cpn_is_valid_region(const char *region) {
    if (region == nullptr) return false;
    try {
        // GetCountryCodeForRegion answers 0 for anything without geographic
        // metadata, which is exactly the "valid region" question; the
        // library's own IsValidRegionCode is private.
        return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(upperRegion(region)) != 0;
    } catch (...) {
        return false;
    }
}
