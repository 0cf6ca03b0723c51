extension Verification.Details {
    /// Why a template group's template was not used; unknown reasons decode as `.other(raw)`.
    public enum TemplateFallbackReason: Sendable, Hashable {
        /// The group has no template in the selected language (`language_missing`).
        case languageMissing
        /// The group's template version awaits approval (`version_pending`).
        case versionPending
        /// The group's template version was rejected (`version_rejected`).
        case versionRejected
        /// The call recording for the template is not ready yet (`audio_not_ready`).
        case audioNotReady
        /// The named group does not exist any more (`group_missing`).
        case groupMissing
        /// A reason this SDK version does not know, with its raw wire value.
        case other(String)

        init(wireValue: String) {
            switch wireValue {
            case "language_missing": self = .languageMissing
            case "version_pending": self = .versionPending
            case "version_rejected": self = .versionRejected
            case "audio_not_ready": self = .audioNotReady
            case "group_missing": self = .groupMissing
            default: self = .other(wireValue)
            }
        }
    }
}
