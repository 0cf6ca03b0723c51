import CMicroHTTPD
import Glibc

// gatehouse-bench baseline --port N [--threads 2]
// Serves until SIGTERM or SIGINT; scripts/bench.sh compares the real server against it.

func fail(_ message: String) -> Never {
    fputs("gatehouse-bench: \(message)\nusage: gatehouse-bench baseline --port N [--threads 2] | signin --base URL --admin-token T --api-key K\n", stderr)
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "signin" { SignInLoad.run(Array(arguments.dropFirst())) }
guard arguments.first == "baseline" else { fail("unknown or missing command") }
arguments.removeFirst()

var port: UInt16?
var threads = 2
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    guard let value = arguments.first else { fail("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--port":
        guard let number = UInt16(value) else { fail("bad --port \(value)") }
        port = number
    case "--threads":
        guard let number = Int(value), number > 0 else { fail("bad --threads \(value)") }
        threads = number
    default: fail("unknown option \(flag)")
    }
}
guard let port else { fail("--port N is required (0 picks a free port)") }

// Block the stop signals before MHD starts its threads, so they inherit the mask and
// the signal is left for sigwait below.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

guard let responder = BaselineResponder(port: port, threads: threads) else {
    fputs("gatehouse-bench: could not start on port \(port)\n", stderr)
    exit(1)
}
print("baseline listening on port \(responder.port) with \(threads) threads")
fflush(stdout)

var received: Int32 = 0
sigwait(&stopSignals, &received)
responder.stop()
