import Foundation
import GatehousePossessionSample
import GatehouseProveClient

// The seed's app backend beside Gatehouse:
//   gatehouse-possession-sample --gatehouse URL --client-id ID --client-secret SECRET [--port 8090]
let arguments = CommandLine.arguments
func value(_ flag: String) -> String? { arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
let environment = ProcessInfo.processInfo.environment
guard let gatehouse = (value("--gatehouse") ?? environment["GATEHOUSE_URL"]).flatMap(URL.init(string:)),
    let clientID = value("--client-id") ?? environment["POSSESSION_CLIENT_ID"],
    let clientSecret = value("--client-secret") ?? environment["POSSESSION_CLIENT_SECRET"]
else {
    FileHandle.standardError.write(Data("usage: gatehouse-possession-sample --gatehouse URL --client-id ID --client-secret SECRET [--port 8090]\n".utf8))
    exit(64)
}
let backend = SampleBackend(
    client: ProveClient(baseURL: gatehouse, clientID: clientID, clientSecret: clientSecret), port: UInt16(value("--port") ?? "8090") ?? 8090)
do {
    try backend.start()
} catch {
    FileHandle.standardError.write(Data("cannot listen: \(error)\n".utf8))
    exit(1)
}
print("sample backend on \(backend.baseURL) (/initialize, /verify, /finish) for Gatehouse at \(gatehouse)")
fflush(stdout)
dispatchMain()
