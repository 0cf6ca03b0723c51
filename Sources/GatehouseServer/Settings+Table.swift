extension Settings {
    /// Every setting the server reads, in README order. Adding a property to `Settings`
    /// without a row here leaves it unreachable, and a row without a README line fails
    /// `SettingsTableTests`, so the three declarations cannot drift apart again.
    static let table: [Setting] = [
        .number("port", \.port, example: "9191"),
        .text("host", \.host, example: "127.0.0.1"),
        .text("data-dir", \.dataDir, example: "/tmp/gatehouse-data"),
        .text("database-url", \.databaseURL, example: "postgres://db.internal/gatehouse"),
        Setting(
            name: "mode", example: "production",
            apply: { settings, value in
                guard let mode = Mode(rawValue: value) else { throw SettingsError("mode must be development or production") }
                settings.mode = mode
            },
            read: { $0.mode.rawValue }),
        .optional("admin-token", \.adminToken, example: "ops-token"),
        Setting(
            name: "access-log", example: "off",
            apply: { settings, value in
                settings.accessLog = value == "off" ? .off : value == "stdout" || value.isEmpty ? .standardOutput : .file(value)
            },
            read: { settings in
                switch settings.accessLog {
                case .standardOutput: "stdout"
                case .off: "off"
                case .file(let path): path
                }
            }),
        .choice("log-level", \.logLevel, [("debug", .debug), ("info", .info), ("warning", .warning), ("error", .error)], example: "debug"),
        .number("threads", \.threads, example: "7"),
        .number("max-body-bytes", \.maxBodyBytes, example: "4096"),
        .number("max-header-bytes", \.maxHeaderBytes, example: "2048"),
        .number("max-connections", \.maxConnections, example: "12"),
        .number("connection-timeout", \.connectionTimeout, example: "9"),
        Setting(
            name: "trusted-proxies", example: "10.0.0.1,192.168.0.0/16",
            apply: { settings, value in
                settings.trustedProxies = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            },
            read: { $0.trustedProxies.joined(separator: ",") }),
        .number("shutdown-grace", \.shutdownGrace, example: "2.5"),
        .optionalNumber("metrics-port", \.metricsPort, example: "9464"),
        .text("metrics-host", \.metricsHost, example: "0.0.0.0"),
        .optional("metrics-token", \.metricsToken, example: "scrape-token"),
        .optionalNumber("console-port", \.consolePort, example: "8081"),
        .text("console-host", \.consoleHost, example: "10.0.0.7"),
        .optional("console-public-url", \.consolePublicURL, example: "https://console.id.example"),
        .number("console-password-cost", \.consolePasswordCost, example: "17"),
        .optional("public-url", \.publicURL, example: "https://id.example"),
        .number("database-pool-size", \.databasePoolSize, example: "3"),
        .optional("delivery-webhook-url", \.deliveryWebhookURL, example: "https://bridge.example/send"),
        .optional("delivery-webhook-secret", \.deliveryWebhookSecret, example: "bridge-secret"),
        .number("verification-callback-timeout", \.verificationCallbackTimeout, example: "1.5"),
        .number("verification-rate-window", \.verificationRateWindow, example: "30"),
        .number("verification-rate-per-ip", \.verificationRatePerIP, example: "11"),
        .number("verification-rate-failed-auth", \.verificationRateFailedAuth, example: "3"),
        .number("verification-rate-per-account", \.verificationRatePerAccount, example: "99"),
        .number("verification-rate-public-per-account", \.verificationRatePublicPerAccount, example: "7"),
        .positive("pumping-minimum-volume", \.pumpingMinimumVolume, example: "50"),
        .positive("pumping-spike-factor", \.pumpingSpikeFactor, example: "5.0"),
        .positive("pumping-conversion-ratio", \.pumpingConversionRatio, example: "0.1"),
        .positive("pumping-cool-off-hours", \.pumpingCoolOffHours, example: "24"),
        .number("session-idle-days", \.sessionIdleDays, example: "2"),
        .number("session-absolute-days", \.sessionAbsoluteDays, example: "5"),
        .optional("smtp-host", \.smtpHost, example: "smtp.example"),
        .number("smtp-port", \.smtpPort, example: "2525"),
        .choice("smtp-security", \.smtpSecurity, [("none", .none), ("starttls", .startTLS), ("tls", .tls)], example: "tls"),
        .text("smtp-from", \.smtpFrom, example: "codes@example.com"),
        .optional("smtp-username", \.smtpUsername, example: "mailer"),
        .optional("smtp-password", \.smtpPassword, example: "mail-secret"),
        .text("smtp-subject", \.smtpSubject, example: "Your code"),
        .url("appstore-api-url", \.appstoreApiURL, example: "http://127.0.0.1:9/apple"),
        .url("google-play-api-url", \.googlePlayApiURL, example: "http://127.0.0.1:9/google"),
        .url("google-token-url", \.googleTokenURL, example: "http://127.0.0.1:9/google/token"),
        .url("google-certs-url", \.googleCertsURL, example: "http://127.0.0.1:9/google/certs"),
        .optional("store-secret-key", \.storeSecretKey, example: "1f2e3d4c5b6a79880f1e2d3c4b5a69780f1e2d3c4b5a69781f2e3d4c5b6a7988"),
        .optional("console-secret-key", \.consoleSecretKey, example: "2e3d4c5b6a79880f1e2d3c4b5a69780f1e2d3c4b5a69781f2e3d4c5b6a79881f"),
        .number("store-client-requests-per-minute", \.storeClientRequestsPerMinute, example: "5"),
        .choice("rate-limit-sharing", \.rateLimitSharing, [("node", .node), ("cluster", .cluster)], example: "cluster"),
        .number("rate-limit-settle-interval", \.rateLimitSettleInterval, example: "0.5"),
        .optional("workflow-files-dir", \.workflowFilesDir, example: "/srv/shared/gatehouse-files"),
        .number("workflow-upload-max-mb", \.workflowUploadMaxMb, example: "20"),
        .number("workflow-concurrency", \.workflowConcurrency, example: "8"),
        .number("workflow-stream-heartbeat", \.workflowStreamHeartbeat, example: "5.5"),
        .number("workflow-max-attempts", \.workflowMaxAttempts, example: "6"),
        .number("workflow-file-retention-days", \.workflowFileRetentionDays, example: "1.5"),
        .number("workflow-event-retention-days", \.workflowEventRetentionDays, example: "2.5"),
        .optional("managed-api-secret-key", \.managedApiSecretKey, example: "8f4c1b2a9d3e7f60a1b2c3d4e5f60718293a4b5c6d7e8f901a2b3c4d5e6f7081"),
        .number("managed-api-timeout", \.managedApiTimeout, example: "12.5"),
        .number("managed-api-max-request-bytes", \.managedApiMaxRequestBytes, example: "65536"),
        .number("managed-api-max-response-mb", \.managedApiMaxResponseMb, example: "3"),
        .number("managed-api-rate-per-minute", \.managedApiRatePerMinute, example: "30"),
        .optional("possession-secret-key", \.possessionSecretKey, example: "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"),
        .number("possession-rate-per-minute", \.possessionRatePerMinute, example: "60"),
        .optional("delivery-providers", \.deliveryProviders, example: "twilio,vonage"),
        .optional("twilio-account-sid", \.twilioAccountSid, example: "AC0123456789abcdef0123456789abcdef"),
        .optional("twilio-auth-token", \.twilioAuthToken, example: "twilio-token"),
        .optional("twilio-api-key-sid", \.twilioApiKeySid, example: "SK0123456789abcdef0123456789abcdef"),
        .optional("twilio-api-key-secret", \.twilioApiKeySecret, example: "twilio-key-secret"),
        .optional("twilio-from", \.twilioFrom, example: "+15005550006"),
        .optional("twilio-messaging-service-sid", \.twilioMessagingServiceSid, example: "MG0123456789abcdef0123456789abcdef"),
        .url("twilio-api-url", \.twilioApiURL, example: "http://127.0.0.1:9/twilio"),
        .optional("vonage-api-key", \.vonageApiKey, example: "a1b2c3d4"),
        .optional("vonage-api-secret", \.vonageApiSecret, example: "vonage-secret"),
        .optional("vonage-from", \.vonageFrom, example: "Gatehouse"),
        .optional("vonage-application-id", \.vonageApplicationId, example: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"),
        .optional("vonage-private-key-file", \.vonagePrivateKeyFile, example: "/etc/gatehouse/vonage.key"),
        .url("vonage-sms-url", \.vonageSmsURL, example: "http://127.0.0.1:9/vonage-sms"),
        .url("vonage-voice-url", \.vonageVoiceURL, example: "http://127.0.0.1:9/vonage-voice"),
        .optional("vonage-signature-secret", \.vonageSignatureSecret, example: "vonage-signature-secret"),
        .choice(
            "vonage-signature-method", \.vonageSignatureMethod,
            [("md5hash", .md5Hash), ("sha1", .hmacSHA1), ("sha256", .hmacSHA256), ("sha512", .hmacSHA512)], example: "sha256"),
    ]

    /// The row of each name, for lookups while parsing.
    static let tableByName: [String: Setting] = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0) })
}
