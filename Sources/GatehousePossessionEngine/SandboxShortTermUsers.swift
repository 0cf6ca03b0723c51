/// Prove's sandbox "short-term" test users, who skip the client-side SDK so that a backend can
/// walk Start → Validate → Challenge → Complete with curl or Postman before an app exists: in a
/// sandbox flow for one of these numbers whose device never began, Validate succeeds. Their
/// identities are the tenant's to import (the development tenant has them).
public enum SandboxShortTermUsers {
    /// Milo Pinson (Prove's Pre-Fill short-term user) and Martina Goodram (Prove Identity's), in E.164.
    public static let numbers: Set<String> = ["+12001001695", "+12001004000"]
}

extension Flow {
    /// A sandbox flow of a short-term user that no device began (a begun one must finish there).
    var skipsTheDevice: Bool {
        environment == .sandbox && deviceStep == .begin && authUsedAt == nil && phoneNumber.map(SandboxShortTermUsers.numbers.contains) == true
    }
}
