import Foundation
import GatehouseCore
import GatehouseCrypto
import GatehouseDatabase
import GatehouseFormats
import GatehouseRules

/// A file as the transport left it: streamed to a temporary path, named by its part.
public struct UploadedFile: Sendable, Equatable {
    /// The input it was sent for (the part's name).
    public let key: String
    public let filename: String
    public let url: URL
    public init(key: String, filename: String, url: URL) {
        self.key = key
        self.filename = filename
        self.url = url
    }
}

/// What a signed-in user asks to run.
public struct ExecuteCommand: Sendable {
    public var tenantID: String
    public var accountID: String
    public var workflowID: String
    public var input: [String: JSONValue]
    public var files: [UploadedFile]
    /// A retry with the same key and request answers the first run and charges once.
    public var idempotencyKey: String?

    public init(tenantID: String, accountID: String, workflowID: String, input: [String: JSONValue], files: [UploadedFile] = [], idempotencyKey: String? = nil) {
        self.tenantID = tenantID
        self.accountID = accountID
        self.workflowID = workflowID
        self.input = input
        self.files = files
        self.idempotencyKey = idempotencyKey
    }
}

/// The run an execute made (or, for a repeated idempotency key, found).
public struct ExecuteOutcome: Sendable, Equatable {
    public let run: WorkflowRun
    public let response: WorkflowDefinition.ResponseKind
    public let replayed: Bool
}

extension WorkflowsEngine {
    /// Validates the inputs and files, then in one transaction checks the entitlement, takes
    /// the credits and queues the run. A `sync` workflow's execute then waits for the run,
    /// up to its timeout. The uploaded files are moved to the run's storage, or removed.
    public func execute(_ command: ExecuteCommand) async throws -> ExecuteOutcome {
        defer { for file in command.files { try? FileManager.default.removeItem(at: file.url) } }
        let (definition, _) = try await workflow(tenantID: command.tenantID, id: command.workflowID)
        // RFC 8941 sf-string characters: printable ASCII.
        if let key = command.idempotencyKey, key.isEmpty || key.utf8.count > 255 || !key.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            throw WorkflowError(.inputInvalid, .field("Idempotency-Key", .printableASCII(1...255)))
        }
        try Self.checkInputs(command.input, definition: definition)
        let checked = try Self.checkFiles(command.files, definition: definition)
        let fingerprint = Self.fingerprint(command, files: checked)
        let runID = "evt_" + environment.ids.next().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let stored = try storeFiles(checked, runID: runID)
        let outcome: ExecuteOutcome
        do {
            outcome = try await create(command, definition: definition, runID: runID, files: stored, fingerprint: fingerprint)
        } catch {
            removeFiles(runID: runID)
            throw error
        }
        if outcome.replayed { removeFiles(runID: runID) } else { doorbell.ring() }
        events.publish(tenantID: command.tenantID, accountID: command.accountID)
        guard definition.response == .sync, !outcome.run.status.isFinished else { return outcome }
        // Not longer than a client waits for an answer: past it, the answer is the eventId to follow.
        let finished = try await waitForFinish(outcome.run, timeout: min(TimeInterval(definition.timeoutSeconds) + settings.leaseSeconds, settings.syncWait))
        return ExecuteOutcome(run: finished, response: outcome.response, replayed: outcome.replayed)
    }

    private func create(
        _ command: ExecuteCommand, definition: WorkflowDefinition, runID: String, files: [RunFile], fingerprint: String
    ) async throws -> ExecuteOutcome {
        do {
            return try await createOnce(command, definition: definition, runID: runID, files: files, fingerprint: fingerprint)
        } catch let error as DatabaseError where error.kind == .uniqueViolation && command.idempotencyKey != nil {
            // The same key arrived twice at once; the loser finds the winner's run.
            return try await createOnce(command, definition: definition, runID: runID, files: files, fingerprint: fingerprint)
        }
    }

    private func createOnce(
        _ command: ExecuteCommand, definition: WorkflowDefinition, runID: String, files: [RunFile], fingerprint: String
    ) async throws -> ExecuteOutcome {
        let (now, billing, hub) = (self.now, self.billing, events)
        let input = try Self.encode(command.input)
        let filesJSON = try Self.encode(files)
        return try await database.write { db in
            if let key = command.idempotencyKey,
                let row = try db.queryOne(
                    "SELECT * FROM workflow_runs WHERE tenant_id = ? AND account_id = ? AND idempotency_key = ?",
                    command.tenantID, command.accountID, key)
            {
                guard try row.get("fingerprint", as: String?.self) == fingerprint else {
                    throw WorkflowError(.idempotencyKeyReused, .idempotencyKeyReused)
                }
                return ExecuteOutcome(run: try WorkflowRun(row: row), response: definition.response, replayed: true)
            }
            try billing.requireEntitlement(db, tenantID: command.tenantID, accountID: command.accountID, workflowID: definition.id, now: now)
            if definition.credits > 0 {
                try billing.charge(
                    db, tenantID: command.tenantID, accountID: command.accountID, credits: definition.credits, reference: runID, now: now)
            }
            let inserted = try db.send(
                """
                INSERT INTO workflow_runs (id, tenant_id, account_id, workflow_id, status, input, files, credits, credits_refunded,
                  attempts, available_at, idempotency_key, fingerprint, created_at, files_removed)
                VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, 0, 0, ?, ?, ?, ?, ?)
                RETURNING *
                """,
                [.text(runID), .text(command.tenantID), .text(command.accountID), .text(definition.id), .text(input),
                 .text(filesJSON), .integer(Int64(definition.credits)), now.sqlValue, command.idempotencyKey.sqlValue,
                 .text(fingerprint), now.sqlValue, .boolean(false)])
            let run = try WorkflowRun(row: try inserted.rows()[0])
            // Last, so that it travels with the COMMIT: the account's event cursor stays locked
            // from here to the end of the transaction, and every run of the account waits for it.
            try Self.appendEvent(db, run: (command.tenantID, command.accountID, runID), status: .queued, now: now, hub: hub)
            return ExecuteOutcome(run: run, response: definition.response, replayed: false)
        }
    }

    /// The run once it has finished, or as it stands when `timeout` (real seconds) runs out.
    func waitForFinish(_ run: WorkflowRun, timeout: TimeInterval) async throws -> WorkflowRun {
        let until = Date().addingTimeInterval(timeout)
        var current = run
        while !current.status.isFinished, Date() < until, !Task.isCancelled {
            let seen = events.version(tenantID: run.tenantID, accountID: run.accountID)
            current = try await report(tenantID: run.tenantID, accountID: run.accountID, eventID: run.id)
            if current.status.isFinished { break }
            // Woken by this node's runner or another node's notice; the poll covers a lost one.
            // The caller's wait is real time, whatever the engine's clock says.
            await events.wait(tenantID: run.tenantID, accountID: run.accountID, after: seen, timeout: min(1, until.timeIntervalSinceNow), clock: SystemClock())
        }
        return current
    }

    // MARK: - Checking what was sent

    static func checkInputs(_ input: [String: JSONValue], definition: WorkflowDefinition) throws {
        let byKey = Dictionary(definition.inputs.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        if let unknown = input.keys.sorted().first(where: { byKey[$0] == nil }) {
            throw WorkflowError(.inputInvalid, .notAnInput(unknown))
        }
        for field in definition.inputs where field.type != "file" {
            if let problem = WorkflowInputRules.problem(field, value: input[field.key]) { throw WorkflowError(.inputInvalid, .input(problem)) }
        }
        for field in definition.fileInputs where input[field.key] != nil && input[field.key] != .null {
            throw WorkflowError(.fileInvalid, .input(WorkflowInputProblem(field.label, .sendAsFile)))
        }
    }

    /// Each file's size, content types and digest, checked against its input's fileOptions.
    static func checkFiles(_ files: [UploadedFile], definition: WorkflowDefinition) throws -> [RunFile] {
        let fileInputs = definition.fileInputs
        if let stray = files.first(where: { file in !fileInputs.contains { $0.key == file.key } }) {
            throw WorkflowError(.fileInvalid, .notAFileInput(stray.key))
        }
        var checked: [RunFile] = []
        for field in fileInputs {
            var submitted: [WorkflowInputRules.SubmittedFile] = []
            var facts: [RunFile] = []
            for file in files where file.key == field.key {
                let (digest, size) = try SHA256.hash(fileAt: file.url)
                let types = try ContentSniffer.types(ofFileAt: file.url)
                submitted.append(.init(filename: file.filename, size: size, contentTypes: types))
                facts.append(RunFile(
                    key: file.key, filename: file.filename, path: file.url.path, size: size, sha256: digest.hexString, contentTypes: types.sorted()))
            }
            if let problem = WorkflowInputRules.fileProblem(field, files: submitted) { throw WorkflowError(.fileInvalid, .input(problem)) }
            checked += facts
        }
        return checked
    }

    /// What makes two executes the same request: the workflow, the inputs, the files' digests.
    static func fingerprint(_ command: ExecuteCommand, files: [RunFile]) -> String {
        let inputs = (try? encode(command.input)) ?? ""
        let digests = files.map { "\($0.key)=\($0.sha256)" }.joined(separator: ",")
        return SHA256.hash(Data((command.workflowID + "\n" + inputs + "\n" + digests).utf8)).hexString
    }

    // MARK: - Files

    func runDirectory(_ runID: String) -> URL { settings.filesDirectory.appendingPathComponent(runID, isDirectory: true) }

    /// Moves the checked files into the run's own folder.
    func storeFiles(_ files: [RunFile], runID: String) throws -> [RunFile] {
        guard !files.isEmpty else { return [] }
        let folder = runDirectory(runID)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try files.enumerated().map { index, file in
            // The client's name never reaches the path: only a plain extension is kept.
            let ext = WorkflowInputRules.fileExtension(file.filename)
            let safe = ext.count <= 10 && ext.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? ext : ""
            let target = folder.appendingPathComponent("\(index)-\(file.key)\(safe)")
            try FileManager.default.moveItem(at: URL(fileURLWithPath: file.path), to: target)
            return RunFile(key: file.key, filename: file.filename, path: target.path, size: file.size, sha256: file.sha256, contentTypes: file.contentTypes)
        }
    }

    func removeFiles(runID: String) {
        try? FileManager.default.removeItem(at: runDirectory(runID))
    }
}
