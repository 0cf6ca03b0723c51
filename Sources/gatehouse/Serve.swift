import Foundation
import GatehouseHTTP
import GatehouseServer

/// `gatehouse serve`: migrate, start, bootstrap development keys, run until SIGTERM/SIGINT.
enum Serve {
    static func run(_ flags: [String]) -> Never {
        let settings = Command.settings(flags)
        let sink = LineWriter.standardOutput
        let app: GatehouseApp
        do {
            app = try GatehouseApp(settings: settings, logSink: sink)
            try app.start()
        } catch {
            Command.fail("gatehouse: \(error)")
        }
        installSignalHandlers(app: app, sink: sink)
        Task {
            do {
                if let credentials = try await app.bootstrapDevelopment() {
                    printBanner(credentials, path: app.credentialsPath, port: app.server.port)
                }
            } catch {
                sink.write(#"{"level":"error","message":"development bootstrap failed"}"#)
                sink.flush()
                FileHandle.standardError.write(Data("gatehouse: \(error)\n".utf8))
            }
        }
        dispatchMain()
    }

    private static func printBanner(_ credentials: DevCredentials, path: String, port: UInt16) {
        LineWriter.standardOutput.flush()
        print("""

            Gatehouse is running in development mode on port \(port).
              base URL     \(credentials.baseURL)
              admin token  \(credentials.adminToken)
              tenant id    \(credentials.tenantId)
              app id       \(credentials.applicationId)
              API key      \(credentials.apiKey)
              sign-in keys \((credentials.apiKeys ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n" + String(repeating: " ", count: 15)))
              verification app key \(credentials.verification?.appKey ?? "-")
              verification secret  \(credentials.verification?.secret ?? "-")
              possession client id     \(credentials.possession?.clientId ?? "-")
              possession client secret \(credentials.possession?.clientSecret ?? "-")
            These are saved in \(path).

            """)
        fflush(stdout)
    }

    /// SIGTERM and SIGINT: stop accepting, finish in-flight requests, close the database, exit 0.
    private static func installSignalHandlers(app: GatehouseApp, sink: LineWriter) {
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                sink.write(#"{"level":"info","message":"shutting down"}"#)
                app.shutdown()
                sink.write(#"{"level":"info","message":"stopped"}"#)
                sink.flush()
                exit(0)
            }
            source.resume()
            retainedSources.append(source)
        }
    }

    nonisolated(unsafe) private static var retainedSources: [any DispatchSourceSignal] = []
}
