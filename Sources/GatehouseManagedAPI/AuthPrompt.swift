/// When the OAuth 2.0 Authorization Code consent screen may be shown; other auth types never show UI.
public enum AuthPrompt: String, Sendable, CaseIterable {
    /// Drop the cached token and always run consent (with `prompt=login`).
    case always = "ALWAYS"
    /// Cached token, else refresh, else consent (the default).
    case ifRequired = "IF_REQUIRED"
    /// Cached token, else refresh, else the `INTERACTION_REQUIRED` error; never any UI.
    case never = "NEVER"
}
