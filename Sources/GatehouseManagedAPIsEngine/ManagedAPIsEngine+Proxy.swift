import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats

/// The proxy's side: which URL a proxied call goes to and what credential it carries.
extension ManagedAPIsEngine {
    /// Plans a call of `rawPath` (after `/proxy`, percent-encoding kept) with `query` on the
    /// tenant's `proxied` definition `name`. `retiring` is a server token the upstream just
    /// refused: it is not used again.
    public func plan(
        tenantID: String, name: String, rawPath: String, query: [(name: String, value: String)], retiring: String? = nil
    ) async throws -> ProxyPlan {
        let stored = try await storedDefinition(tenantID: tenantID, name: name)
        let definition = stored.definition
        guard definition.mode == .proxied else {
            throw ManagedAPIError(.notProxied, .direct(name))
        }
        var reserved: Set<String> = []
        if case .apiKey(.query, let key, _) = definition.auth { reserved.insert(key) }
        // Any spelling of the key's name: some APIs read parameter names without case.
        let callerQuery = query.filter { name in !reserved.contains { $0.caseInsensitiveCompare(name.name) == .orderedSame } }
        var secret: String?
        var echoed: [String] = []
        switch stored.secret {
        case .none: break
        case .unopenable: throw ManagedAPIError.credentialUnavailable(.secretDoesNotOpen(definition: name))
        case .opened(let opened, let escaped):
            secret = opened
            echoed = [opened, escaped]
        }
        var addedQuery: [(name: String, value: String)] = []
        if case .apiKey(.query, let key, _) = definition.auth { addedQuery.append((key, secret ?? "")) }
        // Where the call goes is settled, and vetted, before any token is fetched for it.
        let url = try ProxyPath.join(base: definition.baseURL, rawPath: rawPath, query: callerQuery + addedQuery)
        try await vet(url, definition: definition)
        var headers: [(name: String, value: String)] = []
        var serverToken: String?
        switch definition.auth {
        case .none, .apiKey(.query, _, _): break
        case .basic(let username, _):
            let pair = Data("\(username):\(secret ?? "")".utf8).base64EncodedString()
            headers.append(("Authorization", "Basic " + pair))
            echoed.append(pair)
        case .bearerToken:
            headers.append(("Authorization", "Bearer \(secret ?? "")"))
        case .apiKey(.header, let key, _):
            headers.append((key, secret ?? ""))
        case .oauth2(let settings):
            let token = try await clientCredentialsToken(tenantID: tenantID, definition: definition, settings: settings, secret: secret ?? "", retiring: retiring)
            headers.append(("Authorization", "Bearer \(token)"))
            serverToken = token
            // The client secret only ever goes to the token endpoint; the token goes upstream.
            echoed = [token]
        }
        return ProxyPlan(
            url: url, credentialHeaders: headers, reservedQueryNames: reserved, definition: definition, serverToken: serverToken,
            echoedSecrets: echoed)
    }

    /// The definition from this node's cache, or read and kept there.
    func storedDefinition(tenantID: String, name: String) async throws -> StoredDefinition {
        let key = Self.definitionKey(tenantID: tenantID, name: name)
        let now = self.now
        if let hit = proxiedDefinitions.cached(key, now: now) { return hit }
        let started = proxiedDefinitions.currentGeneration
        let (definition, sealed) = try await database.read { db -> (ManagedAPIDefinition, String?) in
            guard let row = try db.queryOne("SELECT * FROM managed_api_definitions WHERE tenant_id = ? AND name = ?", tenantID, name) else {
                throw ManagedAPIError.notFound(name)
            }
            return (try Self.definition(row), try row.get("sealed_secret"))
        }
        let stored = StoredDefinition(definition: definition, secret: opened(sealed, tenantID: tenantID, name: name))
        proxiedDefinitions.store(stored, for: key, loadedIn: started, now: now)
        return stored
    }

    private func opened(_ sealed: String?, tenantID: String, name: String) -> StoredDefinition.Secret {
        guard let sealed else { return .none }
        guard let secret = secrets?.open(sealed, context: Self.secretContext(tenantID: tenantID, name: name)) else { return .unopenable }
        return .opened(secret, escaped: PercentEncoding.escaped(secret))
    }

    func vet(_ url: URL, definition: ManagedAPIDefinition) async throws {
        do {
            try await destinations.vet(url, allowPrivate: definition.development)
        } catch let error as ManagedAPIError {
            throw error
        } catch let cancelled as CancellationError {
            // The caller went away: that is not the destination's fault.
            throw cancelled
        } catch {
            throw ManagedAPIError.destinationRefused(.unvetted(definition: definition.name))
        }
    }
}
