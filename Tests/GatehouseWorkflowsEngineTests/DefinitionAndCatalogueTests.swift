import Foundation
import GatehouseTesting
import Testing
@testable import GatehouseWorkflowsEngine
import GatehouseRules

@Suite struct DefinitionAndCatalogueTests {
    typealias Input = WorkflowInput

    @Test(arguments: TestDatabaseKind.available)
    func aContradictoryDefinitionIsRefusedWhenSaved(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind)
        defer { h.close() }
        let cases: [([Input], String)] = [
            ([Input(key: "doc", label: "Document", type: "file")], "a file input needs fileOptions"),
            ([Input(key: "t", label: "Title", type: "text", validation: .init(pattern: "([a-z"))], "pattern is not a valid regular expression"),
            ([Input(key: "doc", label: "Document", type: "file", fileOptions: .init(accept: ".pdf", maxSizeMb: 500))], "above the server's upload limit"),
            ([Input(key: "s", label: "Size", type: "select")], "a select input needs options"),
            ([Input(key: "n", label: "Count", type: "number", validation: .init(min: 5, max: 1))], "min is above max"),
            ([Input(key: "a", label: "A", type: "text"), Input(key: "a", label: "B", type: "text")], "used twice"),
            ([Input(key: "x", label: "X", type: "colour")], "unknown type"),
            ([Input(key: "t", label: "Title", type: "text", validation: .init(pattern: "(a+)+$"))], "exponential time"),
            ([Input(key: "t", label: "Title", type: "text", validation: .init(pattern: "^(\\w+\\s?)*$"))], "exponential time"),
            ([Input(key: "t", label: "Title", type: "text", validation: .init(pattern: "((ab)*c)+"))], "exponential time"),
            ([Input(key: "doc", label: "Document", type: "file", fileOptions: .init(accept: ".pdf", maxSizeMb: 1e300, multiple: true))], "at most 1000000"),
            ([Input(key: "doc", label: "Document", type: "file", fileOptions: .init(accept: ".pdf", maxSizeMb: 2e5, multiple: true))], "above the server's upload limit"),
        ]
        for (inputs, expected) in cases {
            await #expect(throws: WorkflowError.self) { try await h.save(WorkflowsHarness.definition(inputs: inputs)) }
            do { try await h.save(WorkflowsHarness.definition(inputs: inputs)) } catch let error as WorkflowError {
                #expect(error.code == .definitionInvalid)
                guard case .inputs(let problem) = error.reason else { Issue.record("\(error)"); continue }
                #expect(problem.sentence.contains(expected), "\(problem.sentence)")
            }
        }
        var unknownExecutor = WorkflowsHarness.definition()
        unknownExecutor.executor = .init(kind: "nope")
        await #expect(throws: WorkflowError(.definitionInvalid, .executorUnknown(known: ["scripted"]))) { try await h.save(unknownExecutor) }
        #expect(try await h.engine.definitions(tenantID: h.tenantID).isEmpty)
    }

    @Test(arguments: TestDatabaseKind.available)
    func theCatalogueFiltersPagesAndSearchesIgnoringCaseAndAccents(_ kind: TestDatabaseKind) async throws {
        let h = try await WorkflowsHarness(kind)
        defer { h.close() }
        for index in 1...7 {
            var definition = WorkflowsHarness.definition(String(format: "wf-doc-%03d", index))
            definition.name = index == 3 ? "Résumé review" : "Document check \(index)"
            definition.category = index.isMultiple(of: 2) ? "documents" : "security"
            definition.featured = index == 5
            definition.enabled = index != 7
            try await h.save(definition)
        }
        let first = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 4, CatalogueQuery())
        #expect(first.total == 6)
        #expect(first.totalPages == 2)
        #expect(first.workflows.count == 4)
        #expect(first.workflows.first?.id == "wf-doc-005")  // featured first
        let second = try await h.engine.catalogue(tenantID: h.tenantID, page: 2, pageSize: 4, CatalogueQuery())
        #expect(second.workflows.count == 2)
        #expect(Set((first.workflows + second.workflows).map(\.id)).count == 6)
        let beyond = try await h.engine.catalogue(tenantID: h.tenantID, page: 3, pageSize: 4, CatalogueQuery())
        #expect(beyond.workflows.isEmpty && beyond.total == 6)

        let accents = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 10, CatalogueQuery(search: "RESUME"))
        #expect(accents.workflows.map(\.id) == ["wf-doc-003"])
        let wildcard = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 10, CatalogueQuery(search: "%"))
        #expect(wildcard.total == 0)
        let category = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 10, CatalogueQuery(category: "documents"))
        #expect(category.workflows.map(\.id).sorted() == ["wf-doc-002", "wf-doc-004", "wf-doc-006"])
        let featured = try await h.engine.catalogue(tenantID: h.tenantID, page: 1, pageSize: 10, CatalogueQuery(featured: true))
        #expect(featured.workflows.map(\.id) == ["wf-doc-005"])

        for (page, size) in [(0, 10), (1, 0), (1, 101), (-1, 5)] {
            await #expect(throws: WorkflowError.self) { try await h.engine.catalogue(tenantID: h.tenantID, page: page, pageSize: size, CatalogueQuery()) }
        }
        await #expect(throws: WorkflowError(.notFound, .noSuchWorkflow("wf-doc-007"))) { try await h.engine.workflow(tenantID: h.tenantID, id: "wf-doc-007") }
        await #expect(throws: WorkflowError(.notFound, .noSuchWorkflow("wf-doc-001"))) { try await h.engine.workflow(tenantID: "other", id: "wf-doc-001") }
    }
}
