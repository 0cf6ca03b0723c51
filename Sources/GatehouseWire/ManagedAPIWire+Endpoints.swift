import Foundation

extension ManagedAPIWire {
    /// The device's side of managed APIs: the list, one definition, and the proxy, which takes
    /// any method on the API's base itself or a path below it.
    public enum Endpoints {
        /// Where an SDK's base URL ends (the seed's apps configure `https://host/api`).
        public static let mount = "/api"
        public static let prefix = mount + "/managed-apis/v1"

        public static let list = Endpoint<NoBody, DefinitionList>(
            .GET, prefix, credential: .session, envelope: .datacove, id: "listManagedAPIs", summary: "The tenant's managed APIs")
        public static let definition = Endpoint<NoBody, Definition>(
            .GET, prefix + "/:name", credential: .session, envelope: .datacove, id: "getManagedAPI", summary: "One managed API")

        /// The proxy for `method`, on the API's base itself (`/:name/proxy`) or a path below it.
        public static func proxy(_ method: RequestMethod, below: Bool) -> Endpoint<RawBytes, RawBytes> {
            Endpoint(
                method, prefix + (below ? "/:name/proxy/*" : "/:name/proxy"), credential: .session, envelope: .datacove,
                id: "proxy\(method.rawValue.capitalized)\(below ? "Path" : "")",
                summary: "Forward to the API's base URL\(below ? " plus {path}" : "") with its credentials")
        }

        /// The proxy for every method, on the base and below it.
        public static let proxies = RequestMethod.allCases.flatMap { method in [proxy(method, below: false), proxy(method, below: true)] }

        /// Every endpoint of the dialect.
        public static var all: [EndpointDescription] { [list.described, definition.described] + proxies.map(\.described) }
    }
}
