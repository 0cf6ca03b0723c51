import GatehouseHTTP
import GatehouseManagedAPIsEngine
import GatehouseWire

/// The device's side of managed APIs (DataSapien-compatible): the list, one definition, and
/// the proxy that adds the credentials. Errors are the Datacove envelope.
enum ManagedAPIsDocument {
    static var document: Document {
        Document(
            name: "managed-apis", title: "Gatehouse managed APIs (DataSapien dialect)",
            description: "The session's access token (`Authorization: Bearer`) reads the tenant's managed API definitions, with an "
                + "`ETag` (`If-None-Match` answers 304). `/{name}/proxy/{path}` forwards any method and body to the API's base URL with "
                + "its credentials added, and answers what the upstream answered; Gatehouse's own refusals there carry "
                + "`X-Gatehouse-Error`. The proxy is documented but not fuzzed: it passes on whatever the upstream says.",
            securitySchemes: ["accessToken": .object(["type": .string("http"), "scheme": .string("bearer")])],
            security: [["accessToken"]], error: .ref("Error"),
            schemas: [
                "Error": DatacoveSchemas.error,
                "Definition": .object([
                    "name": .string, "displayName": .string, "baseUrl": .string, "authType": .oneOf(ManagedAPIDefinition.AuthType.allCases.map(\.rawValue)),
                    "mode": .oneOf(ManagedAPIDefinition.Mode.allCases.map(\.rawValue)), "metadata": .map(.string),
                    "oauth2": .object([
                        "authorizationEndpoint": .string, "tokenEndpoint": .string, "clientId": .string, "scopes": .array(.string),
                        "authorizationParams": .map(.string), "rotatesRefreshTokens": .boolean,
                    ]),
                ], optional: ["oauth2"]),
                "DefinitionList": .object(["managedApis": .array(.ref("Definition"))]),
            ],
            operations: operations)
    }

    static var operations: [Operation] {
        let endpoints = ManagedAPIWire.Endpoints.self
        let definition = ManagedAPIWire.Definition(
            name: "server-health", displayName: "This server's health", baseUrl: "http://127.0.0.1:8080", authType: "NONE", mode: "proxied",
            metadata: ["purpose": "a first proxied call"])
        let tagged: [String: Schema] = ["ETag": .string, "Cache-Control": .string]
        var list = Reply.ok(.ref("DefinitionList"), .wire(ManagedAPIWire.DefinitionList(managedApis: [definition])),
            links: [Link(name: "definition", operationId: endpoints.definition.id, parameters: ["name": "$response.body#/managedApis/0/name"])])
        list.headers = tagged
        var one = Reply.ok(.ref("Definition"), .wire(definition))
        one.headers = tagged
        let notModified = Reply.empty(status: 304, "Unchanged since the ETag sent in If-None-Match")
        let ifNoneMatch = [Parameter(name: "If-None-Match")]
        return [
            Operation(endpoints.list.described, headers: ifNoneMatch, replies: [list, notModified]),
            Operation(endpoints.definition.described, headers: ifNoneMatch, replies: [one, notModified]),
        ] + endpoints.proxies.map { proxy($0.described) }
    }

    static func proxy(_ endpoint: EndpointDescription) -> Operation {
        let takesBody = ![RequestMethod.GET, .HEAD, .DELETE].contains(endpoint.method)
        return Operation(
            endpoint, body: takesBody ? Content(mediaType: "*/*", schema: .any) : nil,
            replies: [Reply(status: "default", description: "The upstream's answer, passed on as it came")],
            notes: "Any body and content type; not fuzzed.")
    }
}
