// swift-tools-version:6.0
import PackageDescription

// Every Swift target shares these settings; the package's language mode stays 5 while the
// engines' and the server's C bridges settle, with upcoming features that keep the code
// Swift 6 ready.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]
// The leaves are in Swift 6 mode: full data-race checking where everything else starts.
let leafSettings = swiftSettings + [.swiftLanguageMode(.v6)]

func system(_ name: String, pkgConfig: String?, apt: [String], brew: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt), .brew(brew)])
}

let engines = [
    "GatehouseVerificationEngine", "GatehouseAccountsEngine", "GatehouseCommerceEngine",
    "GatehouseWorkflowsEngine", "GatehouseManagedAPIsEngine", "GatehousePossessionEngine", "GatehouseConsoleEngine",
]
// SDK products, none importing another.
let sdkProducts = ["GatehouseVerification", "GatehouseAuth", "GatehousePurchases", "GatehouseWorkflows", "GatehouseManagedAPI", "GatehousePossession"]

var targets: [Target] = [
    system("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"], brew: ["libmicrohttpd"]),
    system("CSQLite", pkgConfig: "sqlite3", apt: ["libsqlite3-dev"], brew: ["sqlite"]),
    system("CPostgres", pkgConfig: "libpq", apt: ["libpq-dev"], brew: ["libpq"]),
    system("COpenSSL", pkgConfig: "openssl", apt: ["libssl-dev"], brew: ["openssl@3"]),
    system("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"], brew: ["curl"]),
    system("CQREncode", pkgConfig: "libqrencode", apt: ["libqrencode-dev"], brew: ["qrencode"]),
    system("CPSL", pkgConfig: "libpsl", apt: ["libpsl-dev"], brew: ["libpsl"]),
    // Which host names are someone's domain (a passkey's relying party), by libpsl.
    .target(name: "GatehousePublicSuffix", dependencies: ["CPSL"], swiftSettings: leafSettings),
    // QR codes drawn as SVG (an operator's TOTP URI on the console), encoded by libqrencode.
    // Markup for the console: values escaped by construction, charts drawn as SVG.
    .target(name: "GatehouseHTML", swiftSettings: leafSettings),
    .testTarget(name: "GatehouseHTMLTests", dependencies: ["GatehouseHTML"], swiftSettings: swiftSettings),
    .target(name: "GatehouseQRCode", dependencies: ["CQREncode", "GatehouseHTML"], swiftSettings: leafSettings),
    .testTarget(name: "GatehouseQRCodeTests", dependencies: ["GatehouseQRCode", "GatehouseTesting"], swiftSettings: swiftSettings),
    .target(
        name: "CPhoneNumber",
        cxxSettings: [.unsafeFlags(["-std=c++17"])],
        // protobuf: the number is a protobuf message, and clearing its extension is that library's code.
        linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("protobuf"), .linkedLibrary("stdc++")]
    ),

    // Leaves: text formats (JSON reading, percent-encoding, HTTP tokens, dates, base64, log
    // redaction), and the rules that the server and the SDK must both apply.
    .target(name: "GatehouseFormats", swiftSettings: leafSettings),
    .target(name: "GatehouseRules", dependencies: ["GatehouseFormats"], swiftSettings: leafSettings),

    .target(name: "GatehouseHTTP", dependencies: ["CMicroHTTPD", "GatehouseFormats"], swiftSettings: swiftSettings),
    .target(name: "GatehouseDatabase", swiftSettings: leafSettings),
    .target(name: "GatehouseSQLite", dependencies: ["GatehouseDatabase", "CSQLite"], swiftSettings: leafSettings),
    .target(name: "GatehousePostgres", dependencies: ["GatehouseDatabase", "CPostgres"], swiftSettings: leafSettings),
    .target(name: "GatehouseCrypto", dependencies: ["COpenSSL", "GatehouseFormats"], swiftSettings: leafSettings),
    // The contract only: every dialect's wire types, shared by the server and the SDK.
    .target(name: "GatehouseWire", dependencies: ["GatehouseFormats", "GatehouseRules"], swiftSettings: leafSettings),
    .target(
        name: "GatehouseCore",
        dependencies: ["GatehouseDatabase", "GatehouseCrypto", "GatehouseFormats", "CPhoneNumber"],
        swiftSettings: swiftSettings
    ),
    // The live delivery providers (SMTP with TLS, Twilio, Vonage, the webhook bridge): the server links them, engines never.
    .target(name: "GatehouseDelivery", dependencies: ["GatehouseCore", "GatehouseCrypto", "GatehouseDatabase", "GatehouseFormats"], swiftSettings: swiftSettings),
    // The server's outbound HTTP on libcurl, behind GatehouseCore's OutboundHTTP seam.
    .target(name: "GatehouseOutbound", dependencies: ["CCurl", "GatehouseCore", "GatehouseFormats"], swiftSettings: swiftSettings),
    .target(
        name: "GatehouseServer",
        dependencies: [
            "GatehouseHTTP", "GatehouseCore", "GatehouseWire", "GatehouseFormats", "GatehouseRules", "GatehouseSQLite", "GatehousePostgres",
            "GatehouseOutbound", "GatehouseDelivery", "GatehouseExecutors", "GatehouseWiring", "GatehouseCrypto", "GatehouseDatabase",
            "GatehouseHTML", "GatehouseQRCode",
        ]
            + engines.map { .byName(name: $0) },
        swiftSettings: swiftSettings
    ),
    // The workflow executors the server offers (worker, model endpoint, built-ins), and the
    // conformances that connect engines to each other: no HTTP server in either, so engine
    // tests link them without libmicrohttpd.
    .target(
        name: "GatehouseExecutors",
        dependencies: ["GatehouseWorkflowsEngine", "GatehouseCore", "GatehouseCrypto", "GatehouseFormats", "GatehouseRules", "GatehouseOutbound", "GatehouseDelivery"],
        swiftSettings: swiftSettings),
    .target(
        name: "GatehouseWiring", dependencies: engines.map { .byName(name: $0) } + ["GatehouseCore", "GatehouseDatabase", "GatehouseOutbound"],
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "gatehouse", dependencies: ["GatehouseServer", "GatehouseCore", "GatehouseDatabase", "GatehouseHTTP", "GatehouseWire", "GatehouseConsoleEngine", "GatehouseCrypto",
            "GatehouseFormats",
        ],
        swiftSettings: swiftSettings),
    .executableTarget(name: "gatehouse-bench", dependencies: ["CMicroHTTPD", "GatehouseCore", "GatehouseOutbound"], swiftSettings: swiftSettings),
    // The seed's app backend (/initialize, /verify, /finish) over a v3 client of its own: what
    // a customer runs beside Gatehouse, and what the possession end-to-end tests drive.
    // Prove's v3 API as an app's backend calls it, on libcurl: the sample and the CLI use it.
    .target(
        name: "GatehouseProveClient", dependencies: ["GatehouseCore", "GatehouseOutbound", "GatehouseWire", "GatehouseFormats"],
        swiftSettings: swiftSettings),
    .target(
        name: "GatehousePossessionSample", dependencies: ["GatehouseHTTP", "GatehouseProveClient", "GatehouseWire", "GatehouseFormats"], swiftSettings: swiftSettings),
    .executableTarget(name: "gatehouse-possession-sample", dependencies: ["GatehousePossessionSample", "GatehouseProveClient"], swiftSettings: swiftSettings),

    .target(name: "GatehouseClientCore", dependencies: ["GatehouseWire", "GatehouseFormats"], swiftSettings: leafSettings),
    .executableTarget(
        name: "gatehouse-cli",
        dependencies: ["GatehouseClientCore", "GatehouseWire", "GatehouseFormats", "GatehouseRules", "GatehouseProveClient"] + sdkProducts.map { .byName(name: $0) },
        swiftSettings: swiftSettings
    ),

    // Test support in two layers: the domain one (clock, databases, certificates, raw
    // sockets) that engine tests link, and the live server on top of it for end-to-end tests.
    .target(
        name: "GatehouseTesting",
        dependencies: ["GatehouseCore", "GatehouseCrypto", "GatehouseDatabase", "GatehouseSQLite", "GatehousePostgres", "GatehouseTestEvents", "GatehouseFormats"],
        path: "Tests/GatehouseTesting", swiftSettings: swiftSettings
    ),
    .target(
        name: "GatehouseServerTesting", dependencies: [
            "GatehouseTesting", "GatehouseServer", "GatehouseCore", "GatehouseCrypto", "GatehouseHTTP", "GatehouseOutbound", "GatehouseClientCore",
            "GatehouseAuth", "GatehouseWire", "GatehouseFormats",
        ],
        path: "Tests/GatehouseServerTesting", swiftSettings: swiftSettings
    ),
    .testTarget(name: "GatehouseHTTPTests", dependencies: ["GatehouseHTTP", "GatehouseTesting", "GatehouseTestEvents"], swiftSettings: swiftSettings),
    .testTarget(
        name: "GatehouseDatabaseTests",
        dependencies: ["GatehouseDatabase", "GatehouseSQLite", "GatehousePostgres"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseDeliveryTests",
        dependencies: ["GatehouseDelivery", "GatehouseCore", "GatehouseTesting", "GatehouseCrypto", "GatehouseFormats", "GatehouseOutbound"],
        swiftSettings: swiftSettings),
    .testTarget(name: "GatehouseOutboundTests", dependencies: ["GatehouseOutbound", "GatehouseCore", "GatehouseTesting"], swiftSettings: swiftSettings),
    .testTarget(name: "GatehouseCryptoTests", dependencies: ["GatehouseCrypto", "GatehouseFormats", "GatehouseTesting"], swiftSettings: swiftSettings),
    // The graph below, checked against the manifest and every file's imports.
    .testTarget(name: "GatehouseModuleGraphTests", dependencies: ["GatehouseTesting"], swiftSettings: swiftSettings),
    .testTarget(name: "GatehouseFormatsTests", dependencies: ["GatehouseFormats"], swiftSettings: swiftSettings),
    .testTarget(name: "GatehouseWireTests", dependencies: ["GatehouseWire", "GatehouseFormats", "GatehouseRules"], swiftSettings: swiftSettings),
    .testTarget(
        name: "GatehouseCoreTests", dependencies: ["GatehouseCore", "GatehouseTesting", "GatehouseWire", "GatehouseCrypto", "GatehouseDatabase", "GatehouseOutbound", "GatehouseFormats", "GatehousePostgres"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "GatehouseVerificationEngineTests",
        dependencies: ["GatehouseVerificationEngine", "GatehouseTesting", "GatehouseCrypto", "GatehouseDatabase", "GatehouseCore", "GatehouseOutbound", "GatehouseFormats", "GatehousePostgres"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseAccountsEngineTests",
        // Sign-in is tested over the real verification engine, through the server's conformance.
        dependencies: [
            "GatehouseAccountsEngine", "GatehouseVerificationEngine", "GatehouseWiring", "GatehouseTesting", "GatehouseCrypto",
            "GatehouseDatabase", "GatehouseCore", "GatehousePostgres", "GatehouseFormats",
        ],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseCommerceEngineTests",
        dependencies: [
            "GatehouseCommerceEngine", "GatehouseTesting", "GatehouseCrypto", "GatehouseCore", "GatehouseFormats", "GatehouseDatabase",
            "GatehouseOutbound",
        ],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseWorkflowsEngineTests",
        // Runs are billed through the server's conformance of the real commerce engine.
        dependencies: [
            "GatehouseWorkflowsEngine", "GatehouseCommerceEngine", "GatehouseWiring", "GatehouseExecutors", "GatehouseTesting", "GatehouseCrypto",
            "GatehouseDatabase", "GatehouseCore", "GatehouseWire", "GatehouseOutbound", "GatehouseFormats", "GatehouseRules",
        ],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseManagedAPIsEngineTests",
        dependencies: ["GatehouseManagedAPIsEngine", "GatehouseWiring", "GatehouseTesting", "GatehouseCrypto", "GatehouseDatabase", "GatehouseCore", "GatehouseOutbound"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseConsoleEngineTests",
        dependencies: ["GatehouseConsoleEngine", "GatehouseTesting", "GatehouseCrypto", "GatehouseDatabase", "GatehouseCore", "GatehouseFormats"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehousePossessionEngineTests",
        // Codes are the verification engine's, through the server's conformance.
        dependencies: [
            "GatehousePossessionEngine", "GatehouseVerificationEngine", "GatehouseWiring", "GatehouseTesting", "GatehouseCrypto",
            "GatehouseDatabase", "GatehouseCore", "GatehouseWire", "GatehouseOutbound", "GatehouseFormats",
        ],
        swiftSettings: swiftSettings
    ),
    // Events tests await instead of polling; Foundation only, so the SDK's tests use it too.
    .target(name: "GatehouseTestEvents", path: "Tests/GatehouseTestEvents", swiftSettings: swiftSettings),
    .testTarget(
        name: "GatehouseAuthTests", dependencies: ["GatehouseAuth", "GatehouseClientCore", "GatehouseWire", "GatehouseTestEvents", "GatehouseFormats"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehousePurchasesTests", dependencies: ["GatehousePurchases", "GatehousePurchasesTesting", "GatehouseClientCore", "GatehouseWire", "GatehouseFormats"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseWorkflowsTests", dependencies: ["GatehouseWorkflows", "GatehouseClientCore", "GatehouseWire", "GatehouseTestEvents"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseManagedAPITests",
        dependencies: ["GatehouseManagedAPI", "GatehouseClientCore", "GatehouseWire", "GatehouseTestEvents", "GatehouseOutbound", "GatehouseCore"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehousePossessionTests",
        dependencies: ["GatehousePossession", "GatehouseClientCore", "GatehouseWire", "GatehouseTestEvents", "GatehouseFormats"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseVerificationTests",
        dependencies: ["GatehouseVerification", "GatehouseClientCore", "GatehouseWire", "GatehouseTestEvents", "GatehouseFormats"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "GatehouseEndToEndTests",
        dependencies: [
            "GatehouseTesting", "GatehouseServerTesting", "GatehouseClientCore", "GatehouseServer", "GatehouseWire", "GatehouseVerification", "GatehouseAuth",
            "GatehousePurchases", "GatehousePurchasesTesting", "GatehouseVerificationEngine", "GatehouseCrypto", "GatehouseHTTP", "GatehouseCore",
            "GatehouseWorkflows", "GatehouseWorkflowsEngine", "GatehouseManagedAPI", "GatehousePossession", "GatehousePossessionSample", "GatehouseProveClient",
            "GatehousePossessionEngine", "GatehouseCommerceEngine", "GatehouseOutbound", "GatehouseFormats", "GatehouseRules",
            "GatehouseManagedAPIsEngine", "GatehouseAccountsEngine", "GatehouseDatabase", "GatehouseExecutors", "GatehouseWiring", "GatehouseDelivery",
            "GatehouseConsoleEngine",
        ],
        swiftSettings: swiftSettings
    ),
]
// Engines import none of each other: they meet through protocols wired in GatehouseWiring.
// What one engine alone needs: the accounts engine checks a passkey rpId against the suffix list.
let engineExtras: [String: [Target.Dependency]] = ["GatehouseAccountsEngine": ["GatehousePublicSuffix"]]
targets += engines.map { engine in
    .target(
        name: engine, dependencies: ["GatehouseCore", "GatehouseDatabase", "GatehouseCrypto", "GatehouseFormats", "GatehouseRules"] + (engineExtras[engine] ?? []),
        swiftSettings: swiftSettings)
}
targets += sdkProducts.map { sdk in
    .target(name: sdk, dependencies: ["GatehouseClientCore", "GatehouseWire", "GatehouseFormats", "GatehouseRules"], swiftSettings: swiftSettings)
}
// The scripted StoreKit, for this package's tests and an app's own, kept out of the shipping module.
targets.append(.target(name: "GatehousePurchasesTesting", dependencies: ["GatehousePurchases"], swiftSettings: swiftSettings))

let package = Package(
    name: "Gatehouse",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .executable(name: "gatehouse", targets: ["gatehouse"]),
        .executable(name: "gatehouse-cli", targets: ["gatehouse-cli"]),
        .library(name: "GatehouseServer", targets: ["GatehouseServer"]),
    ] + (sdkProducts + ["GatehousePurchasesTesting"]).map { .library(name: $0, targets: [$0]) },
    targets: targets,
    swiftLanguageModes: [.v5]
)
