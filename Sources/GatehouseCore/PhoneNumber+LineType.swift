import CPhoneNumber

/// What kind of line a phone number belongs to, as classified by libphonenumber's metadata.
///
/// Raw values are snake_case because they travel on the wire and into storage.
public enum PhoneLineType: String, Sendable, Hashable, CaseIterable {
    /// Mobile (cellular) line.
    case mobile
    /// Landline.
    case fixedLine = "fixed_line"
    /// Region numbering does not tell landline from mobile apart (e.g. NANP: US, CA).
    case fixedLineOrMobile = "fixed_line_or_mobile"
    /// Freephone number.
    case tollFree = "toll_free"
    /// Premium-rate number.
    case premiumRate = "premium_rate"
    /// Cost split between caller and recipient.
    case sharedCost = "shared_cost"
    /// Voice over IP number.
    case voip
    /// Personal number routed on to another line.
    case personalNumber = "personal_number"
    /// Pager.
    case pager
    /// Universal access ("company") number.
    case uan
    /// Voicemail access number.
    case voicemail
    /// Matches no known pattern for its region (typically an invalid number).
    case unknown

    /// Maps a `CPN_TYPE_*` code from the C bridge; unexpected codes degrade to `.unknown`.
    init(bridgeCode code: Int32) {
        switch code {
        case CPN_TYPE_FIXED_LINE: self = .fixedLine
        case CPN_TYPE_MOBILE: self = .mobile
        case CPN_TYPE_FIXED_LINE_OR_MOBILE: self = .fixedLineOrMobile
        case CPN_TYPE_TOLL_FREE: self = .tollFree
        case CPN_TYPE_PREMIUM_RATE: self = .premiumRate
        case CPN_TYPE_SHARED_COST: self = .sharedCost
        case CPN_TYPE_VOIP: self = .voip
        case CPN_TYPE_PERSONAL_NUMBER: self = .personalNumber
        case CPN_TYPE_PAGER: self = .pager
        case CPN_TYPE_UAN: self = .uan
        case CPN_TYPE_VOICEMAIL: self = .voicemail
        default: self = .unknown
        }
    }
}
