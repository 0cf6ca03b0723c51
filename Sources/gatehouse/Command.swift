import Foundation
import GatehouseHTTP
import GatehouseServer

/// `gatehouse serve | migrate | admin …`.
enum Command {
    static let usage = """
        usage: gatehouse <command> [--setting value ...]
          serve                      start the server (settings: GATEHOUSE_* or --flags, see README)
          migrate                    apply database migrations and exit
          admin tenant create --name NAME
          admin tenant list
          admin application create --tenant ID --name NAME
          admin key create --tenant ID --label LABEL [--application ID]
          admin key list --tenant ID
          admin key revoke --tenant ID --key KEY_ID
          admin token create --label LABEL
          admin operator create --email EMAIL [--role viewer|admin]
                                     an operator of the console; the password from OPERATOR_PASSWORD (at least
                                     12 characters), else one made and printed once; prints the TOTP otpauth:// URI once
        """

    static func run(_ arguments: [String]) -> Never {
        guard let command = arguments.first else { fail(usage) }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "serve": Serve.run(rest)
        case "migrate": runAsync { try await Migrate.run(rest) }
        case "admin": runAsync { try await Admin.run(rest) }
        case "help", "--help", "-h":
            print(usage)
            exit(0)
        default: fail("unknown command \(command)\n\(usage)")
        }
    }

    static func settings(_ flags: [String]) -> Settings {
        do {
            return try Settings.load(environment: ProcessInfo.processInfo.environment, arguments: flags)
        } catch {
            fail("\(error)")
        }
    }

    /// Runs an async command to completion, then exits with its status.
    static func runAsync(_ body: @escaping @Sendable () async throws -> Void) -> Never {
        Task {
            do {
                try await body()
                exit(0)
            } catch {
                fail(operatorText(error))
            }
        }
        dispatchMain()
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
