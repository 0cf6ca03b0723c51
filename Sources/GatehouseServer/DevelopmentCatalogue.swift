import Foundation
import GatehouseWorkflowsEngine
import GatehouseRules

/// The development tenant's workflows: built-in executors only, so `make run` has something
/// to run without a worker or a model.
enum DevelopmentCatalogue {
    static let definitions: [WorkflowDefinition] = [
        WorkflowDefinition(
            id: "wf-url-001", name: "Website check",
            description: "Checks a web address: its syntax, where its host points, and how it answers a HEAD request.",
            category: "security", featured: true, credits: 0, response: .sync, executor: .init(kind: "url-check"),
            inputs: [WorkflowInput(key: "url", label: "Website address", type: "url", placeholder: "https://example.com", validation: .init(required: true))],
            timeoutSeconds: 30),
        WorkflowDefinition(
            id: "wf-doc-001", name: "Document digest",
            description: "Counts the pages of a PDF or the words of a DOCX or text file, and fingerprints it with SHA-256.",
            category: "documents", credits: 1, response: .event, executor: .init(kind: "document-digest"),
            inputs: [WorkflowInput(
                key: "document", label: "Document", type: "file", validation: .init(required: true),
                fileOptions: .init(accept: ".pdf,.docx,.txt", maxSizeMb: 10, multiple: false))],
            timeoutSeconds: 120),
    ]

    static func install(_ engine: WorkflowsEngine, tenantID: String) async throws {
        for definition in definitions { try await engine.saveDefinition(tenantID: tenantID, definition) }
    }
}
